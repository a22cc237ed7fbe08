# expect: for 2 ranks and gradients of 4 elements your ranks sent 0 elements through exchange in all
# The mistake: each rank reads every other rank's gradient as if it were in its own memory;
# ranks are separate processes, and the ring is the only way between them.
import torch


def ring_all_reduce(grads, exchange):
    return [torch.stack(grads).mean(0) for _ in grads]

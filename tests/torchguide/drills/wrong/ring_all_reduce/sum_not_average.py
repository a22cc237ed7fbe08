# expect: for 2 ranks and gradients of 4 elements rank 0 holds the sum of the gradients; DDP divides it by the world size, 2, to average
# The mistake: the all-reduce's sum kept as it is; DDP divides by the world size, so that the
# learning rate means the same on any number of GPUs.
import torch


def ring_all_reduce(grads, exchange):
    n = len(grads)
    chunks = [[c.clone() for c in g.tensor_split(n)] for g in grads]
    for s in range(n - 1):
        received = exchange([chunks[r][(r - s) % n] for r in range(n)])
        for r in range(n):
            chunks[r][(r - s - 1) % n] += received[r]
    for s in range(n - 1):
        received = exchange([chunks[r][(r + 1 - s) % n] for r in range(n)])
        for r in range(n):
            chunks[r][(r - s) % n] = received[r]
    return [torch.cat(c) for c in chunks]

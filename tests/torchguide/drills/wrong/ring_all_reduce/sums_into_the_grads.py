# expect: for 2 ranks and gradients of 4 elements your ring_all_reduce changed its argument grads[0]; leave it as it was
# The mistake: chunks that are views of the ranks' gradients, so the sums are written into grads.
import torch


def ring_all_reduce(grads, exchange):
    n = len(grads)
    chunks = [list(g.tensor_split(n)) for g in grads]  # views: no clone
    for s in range(n - 1):
        received = exchange([chunks[r][(r - s) % n].clone() for r in range(n)])
        for r in range(n):
            chunks[r][(r - s - 1) % n] += received[r]
    for s in range(n - 1):
        received = exchange([chunks[r][(r + 1 - s) % n].clone() for r in range(n)])
        for r in range(n):
            chunks[r][(r - s) % n].copy_(received[r])
    return [torch.cat(c) / n for c in chunks]

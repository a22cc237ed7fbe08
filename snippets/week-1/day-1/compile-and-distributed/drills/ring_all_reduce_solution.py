import torch
from torchguide.drills import check_here


def ring_all_reduce(grads, exchange):
    n = len(grads)
    # one chunk per rank; tensor_split gives n chunks even
    # when the length is not a multiple of n (chunk may not)
    chunks = [[c.clone() for c in g.tensor_split(n)] for g in grads]
    # reduce-scatter: each chunk travels the ring once, summed
    for s in range(n - 1):
        received = exchange([chunks[r][(r - s) % n] for r in range(n)])
        for r in range(n):
            chunks[r][(r - s - 1) % n] += received[r]
    # now rank r holds chunk (r + 1) % n summed over every rank
    # all-gather: the summed chunks travel the ring once more
    for s in range(n - 1):
        received = exchange([chunks[r][(r + 1 - s) % n] for r in range(n)])
        for r in range(n):
            chunks[r][(r - s) % n] = received[r]
    return [torch.cat(c) / n for c in chunks]  # DDP averages


check_here("ring_all_reduce", ring_all_reduce)

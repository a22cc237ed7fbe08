# expect: for 4 ranks and gradients of 3 elements your ring_all_reduce raised IndexError
# The mistake: torch.chunk(n) makes chunks of ceil(length / n) elements, so it can return fewer
# than n chunks (3 elements in 4 chunks gives 3 chunks of 1); tensor_split always gives n.
import torch


def ring_all_reduce(grads, exchange):
    n = len(grads)
    chunks = [[c.clone() for c in g.chunk(n)] for g in grads]
    for s in range(n - 1):
        received = exchange([chunks[r][(r - s) % n] for r in range(n)])
        for r in range(n):
            chunks[r][(r - s - 1) % n] += received[r]
    for s in range(n - 1):
        received = exchange([chunks[r][(r + 1 - s) % n] for r in range(n)])
        for r in range(n):
            chunks[r][(r - s) % n] = received[r]
    return [torch.cat(c) / n for c in chunks]

# expect: your partial output on rank 0 differs
# The mistake: the activation moved onto the partial sums, where it no longer commutes.
import torch
import torch.nn.functional as F


def tensor_parallel_mlp(x, w1, b1, w2, b2, rank, world_size):
    idx = torch.arange(w1.shape[0]).tensor_split(world_size)[rank]
    h = F.linear(x, w1[idx], b1[idx])
    partial = F.gelu(F.linear(h, w2[:, idx]))
    return partial + b2 if rank == 0 else partial

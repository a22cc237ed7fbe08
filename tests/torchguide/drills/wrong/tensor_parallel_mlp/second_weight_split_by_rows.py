# expect: your tensor_parallel_mlp raised RuntimeError
# The mistake: both weights split by their rows, as if both were column-parallel.
import torch
import torch.nn.functional as F


def tensor_parallel_mlp(x, w1, b1, w2, b2, rank, world_size):
    idx = torch.arange(w1.shape[0]).tensor_split(world_size)[rank]
    out = torch.arange(w2.shape[0]).tensor_split(world_size)[rank]
    h = F.gelu(F.linear(x, w1[idx], b1[idx]))
    partial = F.linear(h, w2[out])
    return partial + b2 if rank == 0 else partial

# expect: for x (3, 3), hidden width 4 on 3 ranks, output width 2 (torch.float32, seed 3) your tensor_parallel_mlp raised IndexError
# The mistake: torch.chunk, which gives 4 features over 3 ranks as 2 chunks of 2.
import torch.nn.functional as F


def tensor_parallel_mlp(x, w1, b1, w2, b2, rank, world_size):
    w1_shard = w1.chunk(world_size, dim=0)[rank]
    b1_shard = b1.chunk(world_size)[rank]
    w2_shard = w2.chunk(world_size, dim=1)[rank]
    partial = F.linear(F.gelu(F.linear(x, w1_shard, b1_shard)), w2_shard)
    return partial + b2 if rank == 0 else partial

import torch
from torch.utils.data import DistributedSampler

data = range(32)  # two halves of 16 miss by chance once in C(32, 16)
seed = torch.initial_seed() % 2**31
# --8<-- [start:gist]
# a different sampler seed per rank (seed=rank, or seed + rank):
parts = [list(DistributedSampler(data, num_replicas=2, rank=r,
                                 seed=seed + r)) for r in range(2)]
seen_twice = set(parts[0]) & set(parts[1])
never_seen = set(data) - set(parts[0]) - set(parts[1])
assert seen_twice and never_seen  # some samples doubled, others skipped
# --8<-- [end:gist]
print("rank 0:", parts[0])
print("rank 1:", parts[1])
print(f"seen by both ranks: {len(seen_twice)}, by neither: {len(never_seen)}")

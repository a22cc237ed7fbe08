import torch
from torch import nn
from torch.utils.data import DistributedSampler

data = range(16)
SEED = torch.initial_seed() % 2**31  # the run's seed, as a training script's
orders, masks = [], []
# --8<-- [start:gist]
for rank in range(2):  # what each of two ranks' scripts does
    torch.manual_seed(SEED + rank)  # its own dropout masks, augmentations
    sampler = DistributedSampler(data, num_replicas=2, rank=rank,
                                 seed=SEED)  # the one seed all ranks share
    sampler.set_epoch(0)
    orders.append(list(sampler))
    masks.append(nn.Dropout(0.5)(torch.ones(64)))
# the sampler draws from its own generator (seed + epoch), not torch's:
assert sorted(orders[0] + orders[1]) == list(data)  # a split, no overlap
assert not torch.equal(masks[0], masks[1])  # yet the ranks' dropout differs
# --8<-- [end:gist]
print("rank 0:", orders[0])
print("rank 1:", orders[1])
print("together they cover the data once; dropout masks differ in",
      int((masks[0] != masks[1]).sum()), "of 64 places")

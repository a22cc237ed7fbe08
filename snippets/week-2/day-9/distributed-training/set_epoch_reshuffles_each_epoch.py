import torch
from torch.utils.data import DistributedSampler

data = range(16)
seed = torch.initial_seed() % 2**31  # the run's seed, as a training script's
samplers = [DistributedSampler(data, num_replicas=2, rank=r, shuffle=True,
                               seed=seed) for r in range(2)]


def epoch_order(sampler, epoch=None):
    if epoch is not None:
        sampler.set_epoch(epoch)
    return list(sampler)


# --8<-- [start:gist]
without = [epoch_order(samplers[0]) for epoch in range(3)]
assert without[0] == without[1] == without[2]  # the same order every epoch
with_set = [epoch_order(samplers[0], epoch) for epoch in range(3)]
assert len({tuple(order) for order in with_set}) == 3  # a new one each
# --8<-- [end:gist]
print("rank 0 without set_epoch:", *without, sep="\n  ")
print("rank 0 with set_epoch(epoch):", *with_set, sep="\n  ")

# each epoch's permutation comes from seed + epoch: every rank draws the
# same one and takes its own slice, so together they still cover the data
for epoch in range(3):
    parts = [epoch_order(sampler, epoch) for sampler in samplers]
    assert sorted(parts[0] + parts[1]) == list(data)
print("each epoch, the two ranks split the data without overlap")

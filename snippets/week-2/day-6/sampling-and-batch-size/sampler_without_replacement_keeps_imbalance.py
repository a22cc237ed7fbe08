import torch
from torch.utils.data import WeightedRandomSampler
from torchguide.data.sampling import class_balanced_weights

labels = torch.tensor([0] * 1000 + [1] * 10)
weights = class_balanced_weights(labels)
sampler = WeightedRandomSampler(weights, 1010, replacement=False)
drawn = torch.tensor(list(sampler))

# without replacement each index comes out once: the epoch is a weighted
# permutation with the dataset's own 1000 : 10 imbalance
assert sorted(drawn.tolist()) == list(range(1010))
assert torch.bincount(labels[drawn]).tolist() == [1000, 10]
# the weights only move class B early in the epoch
first_100 = torch.bincount(labels[drawn[:100]], minlength=2)
assert first_100[1] >= 5

print("one epoch, replacement=False:", torch.bincount(labels[drawn]).tolist())
print("class counts in the first 100 draws:", first_100.tolist())

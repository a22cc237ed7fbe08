import torch
from torch.utils.data import WeightedRandomSampler
from torchguide.data.sampling import class_balanced_weights

labels = torch.tensor([0] * 1000 + [1] * 10)
sampler = WeightedRandomSampler(class_balanced_weights(labels), 1010)
drawn = torch.tensor(list(sampler))  # one epoch of indices

minority = drawn[labels[drawn] == 1]
majority = drawn[labels[drawn] == 0]
repeats = torch.bincount(minority, minlength=1010)[1000:]
unseen_majority = 1000 - len(majority.unique())

# with replacement (the default): the 10 class-B samples are each drawn
# about 50 times, while more than half of class A is never drawn this epoch
assert len(minority.unique()) == 10 and repeats.min() > 25
assert unseen_majority > 500

print("class B, times each sample was drawn:", repeats.tolist())
print("class A samples never drawn this epoch:", unseen_majority, "of 1000")

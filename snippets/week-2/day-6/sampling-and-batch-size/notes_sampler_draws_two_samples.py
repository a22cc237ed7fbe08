# docexec: show=core
import torch
from torch.utils.data import DataLoader, TensorDataset

# class A: 1000 samples (label 0), class B: 10 samples (label 1)
labels = torch.tensor([0] * 1000 + [1] * 10)
dataset = TensorDataset(torch.arange(1010), labels)

# --8<-- [start:core]
weights = [0.1, 0.9]  # Probability for each sample
sampler = torch.utils.data.WeightedRandomSampler(
    weights, num_samples=len(weights)
)
loader = DataLoader(dataset, sampler=sampler)  # Shuffle must be False
# --8<-- [end:core]

drawn = [int(index) for index, _ in loader]
# one weight per SAMPLE: two weights, so only indices 0 and 1 can come out,
# and num_samples=2 makes an "epoch" of two samples, both from class A
assert len(drawn) == 2 and set(drawn) <= {0, 1}
assert labels[drawn].tolist() == [0, 0]

print("samples per epoch:", len(drawn), "| indices drawn:", drawn)
print("indices it can ever draw:", sampler.weights.nonzero().flatten().tolist())

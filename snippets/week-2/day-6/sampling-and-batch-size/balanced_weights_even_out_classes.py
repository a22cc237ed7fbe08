import torch
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler
from torchguide.data.sampling import class_balanced_weights

labels = torch.tensor([0] * 1000 + [1] * 10)
dataset = TensorDataset(torch.arange(1010), labels)

weights = class_balanced_weights(labels)  # 1 / count(class), per sample
assert torch.allclose(weights, 1.0 / torch.bincount(labels)[labels].double())

# in expectation: P(class) = sum of its weights / sum of all weights
expected = [weights[labels == c].sum() / weights.sum() for c in (0, 1)]
assert torch.allclose(torch.stack(expected), torch.tensor(0.5).double())

sampler = WeightedRandomSampler(weights, num_samples=len(dataset))
loader = DataLoader(dataset, batch_size=32, sampler=sampler)
drawn = torch.cat([y for _, y in loader])  # one epoch: 1010 draws
counts = torch.bincount(drawn, minlength=2)
assert len(drawn) == 1010
assert 0.45 < counts[1] / 1010 < 0.55  # measured: about half are class B

print("dataset counts: ", torch.bincount(labels).tolist())
print("P(class) expected:", [round(p.item(), 3) for p in expected])
print("one epoch drawn:  ", counts.tolist())

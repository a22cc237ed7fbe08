import torch
from torch.utils.data import DataLoader, Dataset


class Squares(Dataset):
    """Holds the data logic: how many samples, and how to get sample i."""

    def __init__(self, n):
        self.n = n
        self.calls = 0

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        self.calls += 1
        return torch.tensor([float(i)]), i * i


# --8<-- [start:gist]
dataset = Squares(10)
x, y = dataset[3]  # one sample, no batching
assert x.shape == (1,) and y == 9

loader = DataLoader(dataset, batch_size=4, shuffle=True)
batches = list(loader)
assert dataset.calls == 1 + 10  # dataset[3], then each index once
assert len(loader) == len(batches) == 3  # ceil(10 / 4)
assert [len(b[1]) for b in batches] == [4, 4, 2]
# --8<-- [end:gist]
seen = torch.cat([b[0] for b in batches]).flatten()
assert sorted(seen.tolist()) == [float(i) for i in range(10)]

print("dataset[3]:", (x, y))
print("the loader is made of:")
print("  sampler      ", type(loader.sampler).__name__)
print("  batch_sampler", type(loader.batch_sampler).__name__)
print("  collate_fn   ", loader.collate_fn.__name__)
print("first batch:", batches[0])

import torch
from torch.utils.data import DataLoader, default_collate

samples = [(torch.full((2,), float(i)), i) for i in range(5)]
received = []


def show_and_collate(batch):
    received.append(batch)
    return default_collate(batch)  # what the loader does by default


loader = DataLoader(samples, batch_size=2, collate_fn=show_and_collate)
batches = list(loader)

assert [len(b) for b in received] == [2, 2, 1]  # a list of samples each
assert received[0] == samples[:2]  # the samples themselves, unchanged
assert batches[0][0].shape == (2, 2)  # collated: one tensor per field

print("collate_fn receives:", type(received[0]).__name__, received[0])
print("and returns:", batches[0])

# expect: for lengths [1, 3] (torch.float32) your batch has shape (2, 1); expected (2, 3)
# The mistake: padding every sequence to the first one's length, not the longest.
import torch
import torch.nn.functional as F


def pad_collate(batch):
    if not batch:
        return torch.zeros(0, 0), torch.zeros(0, dtype=torch.int64)
    width = len(batch[0])
    padded = torch.stack([F.pad(s, (0, width - len(s))) for s in batch])
    return padded, torch.tensor([len(s) for s in batch])

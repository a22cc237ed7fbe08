# expect: for lengths [3, 1] (torch.float32) your batch has shape (3, 2); expected (2, 3)
# The mistake: pad_sequence's default batch_first=False puts time first.
import torch
from torch.nn.utils.rnn import pad_sequence


def pad_collate(batch):
    if not batch:
        return torch.zeros(0, 0), torch.zeros(0, dtype=torch.int64)
    return pad_sequence(batch), torch.tensor([len(s) for s in batch])

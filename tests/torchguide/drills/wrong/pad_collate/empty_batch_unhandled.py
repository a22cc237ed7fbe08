# expect: for an empty batch your pad_collate raised RuntimeError
# The mistake: calling pad_sequence on an empty list, which it refuses.
import torch
from torch.nn.utils.rnn import pad_sequence


def pad_collate(batch):
    lengths = torch.tensor([len(s) for s in batch], dtype=torch.int64)
    return pad_sequence(batch, batch_first=True), lengths

# expect: for lengths [3, 1] (torch.float32) your lengths is a list; expected a tensor
# The mistake: lengths returned as a Python list, which pin_memory and .to(device) skip.
import torch
from torch.nn.utils.rnn import pad_sequence


def pad_collate(batch):
    if not batch:
        return torch.zeros(0, 0), []
    return pad_sequence(batch, batch_first=True), [len(s) for s in batch]

import torch
from torch.nn.utils.rnn import pad_sequence
from torchguide.drills import check_here


def pad_collate(batch: list[torch.Tensor]):
    """(padded (B, max length), lengths (B,) int64) of 1-D sequences."""
    if not batch:  # pad_sequence refuses an empty list
        return torch.zeros(0, 0), torch.zeros(0, dtype=torch.int64)
    lengths = torch.tensor([len(s) for s in batch], dtype=torch.int64)
    padded = pad_sequence(batch, batch_first=True, padding_value=0)
    return padded, lengths


check_here("pad_collate", pad_collate)

import torch


def pad_collate(batch: list[torch.Tensor]):
    """(padded (B, max length), lengths (B,) int64) of 1-D sequences."""
    raise NotImplementedError

import numpy as np
import torch
from torchguide.drills import check_here


def collate(batch):
    first = batch[0]
    if isinstance(first, torch.Tensor):
        return torch.stack(batch)
    if isinstance(first, np.ndarray | np.generic):  # keep the NumPy dtype
        return torch.stack([torch.as_tensor(sample) for sample in batch])
    if isinstance(first, int):
        return torch.tensor(batch, dtype=torch.int64)
    if isinstance(first, float):  # torch.tensor alone would make float32
        return torch.tensor(batch, dtype=torch.float64)
    if isinstance(first, str):  # before sequences: a string is one too
        return list(batch)
    if isinstance(first, dict):
        return {key: collate([s[key] for s in batch]) for key in first}
    # a tuple or list: one batch per position
    return [collate(list(field)) for field in zip(*batch, strict=True)]


check_here("collate_like_default", collate)

# expect: is a tuple; expected a list, as default_collate returns for a sequence of samples
# The mistake: a tuple of batches for samples that are tuples; default_collate returns a list.
import numpy as np
import torch


def collate(batch):
    first = batch[0]
    if isinstance(first, torch.Tensor):
        return torch.stack(batch)
    if isinstance(first, np.ndarray | np.generic):
        return torch.stack([torch.as_tensor(sample) for sample in batch])
    if isinstance(first, int):
        return torch.tensor(batch, dtype=torch.int64)
    if isinstance(first, float):
        return torch.tensor(batch, dtype=torch.float64)
    if isinstance(first, str):
        return list(batch)
    if isinstance(first, dict):
        return {key: collate([s[key] for s in batch]) for key in first}
    return tuple(collate(list(field)) for field in zip(*batch, strict=True))

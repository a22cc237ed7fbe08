# expect: your batch[0] is a ndarray; expected a tensor
# The mistake: NumPy samples stacked with NumPy, and handed on as an array.
import numpy as np
import torch


def collate(batch):
    first = batch[0]
    if isinstance(first, torch.Tensor):
        return torch.stack(batch)
    if isinstance(first, np.ndarray | np.generic):
        return np.stack(batch)
    if isinstance(first, int):
        return torch.tensor(batch, dtype=torch.int64)
    if isinstance(first, float):
        return torch.tensor(batch, dtype=torch.float64)
    if isinstance(first, str):
        return list(batch)
    if isinstance(first, dict):
        return {key: collate([sample[key] for sample in batch]) for key in first}
    return [collate(list(field)) for field in zip(*batch, strict=True)]

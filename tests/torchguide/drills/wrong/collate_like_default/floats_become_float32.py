# expect: your batch['label'] has dtype torch.float32; expected torch.float64
# The mistake: torch.tensor for every list of numbers; Python floats then get the default dtype, float32.
import numpy as np
import torch


def collate(batch):
    first = batch[0]
    if isinstance(first, torch.Tensor):
        return torch.stack(batch)
    if isinstance(first, np.ndarray | np.generic):
        return torch.stack([torch.as_tensor(sample) for sample in batch])
    if isinstance(first, int | float):
        return torch.tensor(batch)
    if isinstance(first, str):
        return list(batch)
    if isinstance(first, dict):
        return {key: collate([sample[key] for sample in batch]) for key in first}
    return [collate(list(field)) for field in zip(*batch, strict=True)]

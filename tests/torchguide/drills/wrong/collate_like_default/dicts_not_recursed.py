# expect: your batch is a list; expected a dict of batches
# The mistake: only tuples are taken apart; a batch of dicts is handed on as the list of samples.
import torch


def collate(batch):
    first = batch[0]
    if isinstance(first, torch.Tensor):
        return torch.stack(batch)
    if isinstance(first, tuple):
        return [collate(list(field)) for field in zip(*batch, strict=True)]
    return [torch.as_tensor(sample) if not isinstance(sample, str | dict) else sample for sample in batch]

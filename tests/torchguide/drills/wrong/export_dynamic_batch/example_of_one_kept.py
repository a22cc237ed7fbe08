# expect: (torch.float32, seed 2) your export_dynamic_batch raised UserError
# The mistake: the batch declared dynamic on an example of one, which export specializes.
import torch


def export_dynamic_batch(model, example):
    batch = torch.export.Dim("batch")
    return torch.export.export(model, (example,), dynamic_shapes=({0: batch},))

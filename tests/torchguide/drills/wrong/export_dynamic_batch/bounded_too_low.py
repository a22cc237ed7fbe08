# expect: your exported program refused a batch of 64
# The mistake: a max= bound below the batches the program will see.
import torch


def export_dynamic_batch(model, example):
    example = torch.cat([example, example])  # never a batch of one
    batch = torch.export.Dim("batch", min=2, max=32)
    return torch.export.export(model, (example,), dynamic_shapes=({0: batch},))

import torch
from torchguide.drills import check_here


def export_dynamic_batch(model, example):
    if example.shape[0] == 1:  # a size of 1 is specialized, never dynamic
        example = example.expand(2, *example.shape[1:])
    batch = torch.export.Dim("batch")
    return torch.export.export(
        model, (example,), dynamic_shapes=({0: batch},)
    )


check_here("export_dynamic_batch", export_dynamic_batch)

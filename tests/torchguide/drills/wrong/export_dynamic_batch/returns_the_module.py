# expect: your export_dynamic_batch returned a GraphModule; expected the torch.export.ExportedProgram
# The mistake: the program's module() returned, not the program.
import torch


def export_dynamic_batch(model, example):
    example = torch.cat([example, example])
    batch = torch.export.Dim("batch")
    program = torch.export.export(model, (example,), dynamic_shapes=({0: batch},))
    return program.module()

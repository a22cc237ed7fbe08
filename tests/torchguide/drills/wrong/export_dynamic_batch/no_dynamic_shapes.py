# expect: for an example of shape (2, 3, 4) and batches of [2, 3, 5] (torch.float32, seed 0) your exported program refused a batch of 3 (AssertionError: Guard failed
# The mistake: exported as is: every size of the example is specialized.
import torch


def export_dynamic_batch(model, example):
    return torch.export.export(model, (example,))

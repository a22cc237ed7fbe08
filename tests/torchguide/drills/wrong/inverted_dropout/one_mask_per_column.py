# expect: your masks agree between neighbouring rows at 1.000
# The mistake: one draw per feature, broadcast over the rows: whole columns dropped together.
import torch


def dropout(x, p, training):
    if not training:
        return x
    keep = torch.rand(x.shape[-1], dtype=x.dtype) >= p
    return x * keep / (1 - p)

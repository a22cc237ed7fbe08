# expect: your masks agree between two calls at 1.000
# The mistake: a generator seeded in the function "for reproducibility": the same mask every call.
import torch


def dropout(x, p, training):
    if not training:
        return x
    generator = torch.Generator().manual_seed(0)
    keep = torch.rand(x.shape, generator=generator, dtype=x.dtype) >= p
    return x * keep / (1 - p)

# expect: of 3072 elements of a wide input; expected p = 0.3 within 7 standard errors
# The mistake: the mask kept where the draw is below p, so 1 - p of the elements are dropped.
import torch


def dropout(x, p, training):
    if not training:
        return x
    return x * (torch.rand_like(x) < p) / (1 - p)

# expect: your kept elements are x itself; inverted dropout scales them by 1 / (1 - p) = 1.429
# The mistake: the original paper's dropout, unscaled in training and scaled by 1 - p in eval.
import torch


def dropout(x, p, training):
    if not training:
        return x * (1 - p)
    return x * (torch.rand_like(x) >= p)

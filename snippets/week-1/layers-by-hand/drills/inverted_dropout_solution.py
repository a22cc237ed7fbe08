import torch
from torchguide.drills import check_here


def dropout(x, p, training):
    """Inverted dropout: the kept elements scaled by 1 / (1 - p) now."""
    if not training:
        return x  # eval: nothing to undo
    keep = torch.rand_like(x) >= p  # a fresh draw per element and call
    return x * keep / (1 - p)


check_here("inverted_dropout", dropout)

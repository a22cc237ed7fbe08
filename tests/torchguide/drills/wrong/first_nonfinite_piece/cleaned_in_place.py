# expect: your first_nonfinite_piece changed its argument pieces['log(1 - p)']; leave it as it was
# The mistake: each tensor clamped in place, to "make it finite" once looked at: the caller's
# tensors change under them, and the evidence is gone.
import torch


def first_nonfinite_piece(pieces):
    found = None
    for name, tensor in pieces.items():
        if found is None and not torch.isfinite(tensor).all():
            found = name
        if tensor.is_floating_point():
            tensor.clamp_(-1e4, 1e4)
    return found

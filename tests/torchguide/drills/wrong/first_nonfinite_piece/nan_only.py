# expect: you returned '(1 - y) * log(1 - p)'; expected 'log(1 - p)'
# The mistake: looking for NaN only; the lab's first bad piece holds -inf, which is not NaN, and
# the NaN comes one piece later, from 0 * -inf.
import torch


def first_nonfinite_piece(pieces):
    for name, tensor in pieces.items():
        if torch.isnan(tensor).any():
            return name
    return None

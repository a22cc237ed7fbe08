# expect: for pieces named out of alphabetical order ('z', 'a') you returned 'a'; expected 'z'
# The mistake: the pieces walked in sorted order of their names, not in the order they were
# computed, which is the dict's own order.
import torch


def first_nonfinite_piece(pieces):
    for name in sorted(pieces):
        if not torch.isfinite(pieces[name]).all():
            return name
    return None

# expect: calls torch.functional.broadcast_shapes; the task asks for the shape from the two tuples alone
# The mistake: torch's own answer, which the task rules out.
import torch


def broadcast_shape(a, b):
    try:
        return tuple(torch.broadcast_shapes(a, b))
    except RuntimeError:
        return None

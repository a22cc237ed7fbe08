# expect: your view_strides calls torch.empty_strided; the drill asks for the strides from the tuples alone, no tensor
# The mistake: calling view on a tensor with those strides, which the drill rules out.
import torch


def view_strides(shape, strides, new_shape):
    try:
        return torch.empty_strided(shape, strides).view(new_shape).stride()
    except RuntimeError:
        return None

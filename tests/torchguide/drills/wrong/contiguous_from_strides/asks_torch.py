# expect: for shape (2, 3) and strides (3, 1) your is_contiguous calls torch.empty_strided; the drill asks for the answer from the two tuples alone
# The mistake: making a tensor with those strides and asking it, which the drill rules out.
import torch


def is_contiguous(shape, strides):
    return torch.empty_strided(shape, strides).is_contiguous()

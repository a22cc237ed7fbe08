# expect: for x of shape (2, 4), normalized_shape (4,), weight and bias, eps 1e-05 (torch.float32) your output is
# The mistake: torch.var's default divides by n - 1; LayerNorm's variance divides by n.
import torch


def layer_norm(x, normalized_shape, weight, bias, eps):
    dims = tuple(range(-len(normalized_shape), 0))
    y = (x - x.mean(dim=dims, keepdim=True)) / torch.sqrt(x.var(dim=dims, keepdim=True) + eps)
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y

import torch
from torchguide.drills import check_here


def layer_norm(
    x: torch.Tensor, normalized_shape: tuple, weight, bias, eps: float
):
    """LayerNorm over the last len(normalized_shape) dimensions."""
    dims = tuple(range(-len(normalized_shape), 0))  # each sample's own features
    mean = x.mean(dim=dims, keepdim=True)
    var = x.var(dim=dims, unbiased=False, keepdim=True)  # biased: divided by n
    y = (x - mean) / torch.sqrt(var + eps)
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y


check_here("layer_norm_by_hand", layer_norm)

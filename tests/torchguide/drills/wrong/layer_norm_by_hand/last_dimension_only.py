# expect: for x of shape (2, 3, 4), normalized_shape (3, 4), weight and bias, eps 1e-05 (torch.float32) your output differs at
# The mistake: nn.LayerNorm(d)'s habit, dim=-1, kept when normalized_shape names two dimensions.
import torch


def layer_norm(x, normalized_shape, weight, bias, eps):
    mean = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, unbiased=False, keepdim=True)
    y = (x - mean) / torch.sqrt(var + eps)
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y

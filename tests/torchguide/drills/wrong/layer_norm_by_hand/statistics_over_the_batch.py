# expect: (a batch of one) your output is
# The mistake: BatchNorm's statistics, over the batch dimension; a batch of one normalizes to zeros.
import torch


def layer_norm(x, normalized_shape, weight, bias, eps):
    mean = x.mean(dim=0, keepdim=True)
    var = x.var(dim=0, unbiased=False, keepdim=True)
    y = (x - mean) / torch.sqrt(var + eps)
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y

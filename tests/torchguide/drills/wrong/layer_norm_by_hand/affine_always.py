# expect: no weight or bias, eps 1e-05 (torch.float32) your layer_norm raised TypeError
# The mistake: weight and bias taken as always there; without them the output is only normalized.
import torch


def layer_norm(x, normalized_shape, weight, bias, eps):
    dims = tuple(range(-len(normalized_shape), 0))
    mean = x.mean(dim=dims, keepdim=True)
    var = x.var(dim=dims, unbiased=False, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * weight + bias

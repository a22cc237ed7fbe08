# expect: your layer_norm calls torch.nn.functional.layer_norm; the drill asks you to write the normalization from its mean and variance
# The mistake: the module whose computation the drill asks for, built on the fly.
import torch


def layer_norm(x, normalized_shape, weight, bias, eps):
    module = torch.nn.LayerNorm(normalized_shape, eps=eps, elementwise_affine=False, dtype=x.dtype)
    y = module(x)
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y

# expect: your layer_norm calls torch.nn.functional.rms_norm; the drill asks you to write the normalization from its mean and variance
# The mistake: RMSNorm of the centred input is LayerNorm, but it is torch's normalization, not yours.
import torch.nn.functional as F


def layer_norm(x, normalized_shape, weight, bias, eps):
    dims = tuple(range(-len(normalized_shape), 0))
    y = F.rms_norm(x - x.mean(dim=dims, keepdim=True), normalized_shape, weight, eps)
    return y if bias is None else y + bias

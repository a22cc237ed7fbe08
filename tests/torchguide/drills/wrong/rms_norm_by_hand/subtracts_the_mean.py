# expect: for x of shape (2, 4), a weight, eps 1e-06 (torch.float32, seed 0) your output is
# The mistake: LayerNorm's centring kept: RMSNorm divides by the root mean square of x itself.
import torch


def rms_norm(x, weight, eps):
    centred = x - x.mean(dim=-1, keepdim=True)
    y = centred * torch.rsqrt(centred.pow(2).mean(dim=-1, keepdim=True) + eps)
    return y if weight is None else y * weight

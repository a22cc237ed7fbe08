# expect: for x of shape (2, 4), a weight, eps 1e-06 (torch.float32, seed 0) your output is
# The mistake: one mean square for the whole tensor, which is right for a batch of one only.
import torch


def rms_norm(x, weight, eps):
    y = x * torch.rsqrt(x.pow(2).mean() + eps)
    return y if weight is None else y * weight

# expect: for x (3, 2) at positions [0, 1, 2], base 10000 (torch.float32, seed 0) the dot product of your rotated vectors at positions 0 and 0 is
# The mistake: x * cos with the rotate-half term left out: a scaling, not a rotation.
import torch


def rotary_embedding(x, positions, base):
    half = x.shape[-1] // 2
    frequencies = base ** (-torch.arange(half, dtype=torch.float64) * 2 / x.shape[-1])
    angles = positions[:, None].double() * frequencies
    return x * torch.cat([angles.cos(), angles.cos()], dim=-1).to(x.dtype)

# expect: for x (4, 8) at positions [0, 1, 2, 3], base 10000 (torch.float32, seed 1) your output differs at
# The mistake: pairs of neighbours (x0, x1), (x2, x3), the original paper's layout; the drill asks for (i, i + D/2).
import torch


def rotary_embedding(x, positions, base):
    half = x.shape[-1] // 2
    frequencies = base ** (-torch.arange(half, dtype=torch.float64) * 2 / x.shape[-1])
    angles = positions[:, None].double() * frequencies
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    a, b = x[..., 0::2], x[..., 1::2]
    return torch.cat([a * cos - b * sin, b * cos + a * sin], dim=-1)

# expect: for x (4, 8) at positions [0, 1, 2, 3], base 10000 (torch.float32, seed 1) your output differs at
# The mistake: base ** (-i / D) for pair i: the frequencies fall half as fast as the model's.
import torch


def rotary_embedding(x, positions, base):
    half = x.shape[-1] // 2
    frequencies = base ** (-torch.arange(half, dtype=torch.float64) / x.shape[-1])
    angles = positions[:, None].double() * frequencies
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    a, b = x[..., :half], x[..., half:]
    return torch.cat([a * cos - b * sin, b * cos + a * sin], dim=-1)

import torch
from torchguide.drills import check_here


def rotary_embedding(x: torch.Tensor, positions: torch.Tensor, base: float):
    """Rotates feature pairs (i, i + D/2) by position * base ** (-2i / D)."""
    half = x.shape[-1] // 2
    exponents = torch.arange(half, dtype=torch.float64) * 2 / x.shape[-1]
    angles = positions[:, None].double() * base**-exponents  # (L, D/2)
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    a, b = x[..., :half], x[..., half:]
    return torch.cat([a * cos - b * sin, b * cos + a * sin], dim=-1)


check_here("rotary_embedding", rotary_embedding)

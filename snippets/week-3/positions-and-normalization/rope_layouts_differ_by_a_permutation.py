import torch


def angles(length, dim, base=10000.0):
    rates = base ** (-torch.arange(dim // 2) * 2 / dim)
    return torch.arange(length)[:, None] * rates


def rotate_half(x):  # pairs (i, i + D/2): Hugging Face's Llama, GPT-NeoX
    half, t = x.shape[-1] // 2, angles(x.shape[-2], x.shape[-1])
    a, b = x[..., :half], x[..., half:]
    return torch.cat([a * t.cos() - b * t.sin(), b * t.cos() + a * t.sin()], -1)


def rotate_neighbours(x):  # pairs (2i, 2i + 1): the paper, Meta's Llama code
    t = angles(x.shape[-2], x.shape[-1])
    a, b = x[..., 0::2], x[..., 1::2]
    pairs = [a * t.cos() - b * t.sin(), b * t.cos() + a * t.sin()]
    return torch.stack(pairs, -1).flatten(-2)


x = torch.randn(5, 8, dtype=torch.float64)
# --8<-- [start:gist]
evens_then_odds = torch.cat([torch.arange(0, 8, 2), torch.arange(1, 8, 2)])
assert not torch.allclose(rotate_half(x), rotate_neighbours(x))
assert torch.allclose(  # the same rotation, once the features are reordered
    rotate_half(x[:, evens_then_odds]), rotate_neighbours(x)[:, evens_then_odds]
)
# --8<-- [end:gist]
print("features reordered", evens_then_odds.tolist(), "-> same rotation: True")

import torch


def rotate(x, positions, base=10000.0):  # rotary, pairs (i, i + D/2)
    half = x.shape[-1] // 2
    rates = base ** (-torch.arange(half, dtype=x.dtype) * 2 / x.shape[-1])
    angles = positions[:, None] * rates
    a, b = x[..., :half], x[..., half:]
    cos, sin = angles.cos(), angles.sin()
    return torch.cat([a * cos - b * sin, b * cos + a * sin], dim=-1)


def added(x, positions, base=10000.0):  # the original sinusoidal encoding
    half = x.shape[-1] // 2
    rates = base ** (-torch.arange(half, dtype=x.dtype) * 2 / x.shape[-1])
    angles = positions[:, None] * rates
    return x + torch.cat([angles.sin(), angles.cos()], dim=-1)


q, k = torch.randn(2, 1, 64, dtype=torch.float64)


def at(position):
    return torch.tensor([position], dtype=torch.float64)


# --8<-- [start:gist]
for encode in (rotate, added):
    scores = [  # query at m, key at n: the same offset m - n = 3 each time
        (encode(q, at(m + 3)) @ encode(k, at(m)).T).item()
        for m in (0.0, 10.0, 500.0)
    ]
    shown = [round(s, 6) for s in scores]
    print(f"{encode.__name__:6} q.k at offset 3:", shown)
    # --8<-- [end:gist]
    same = max(scores) - min(scores) < 1e-9
    assert same == (encode is rotate)

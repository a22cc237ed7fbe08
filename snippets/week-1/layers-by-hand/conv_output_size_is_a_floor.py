import torch
from torch import nn


def out_size(n, k, stride=1, padding=0, dilation=1):
    return (n + 2 * padding - dilation * (k - 1) - 1) // stride + 1


# (input, kernel, stride, padding, dilation)
settings = [(32, 3, 1, 1, 1), (32, 3, 2, 1, 1), (7, 3, 2, 0, 1),
            (28, 5, 1, 0, 1), (28, 3, 1, 2, 2), (10, 4, 3, 1, 1)]
x = torch.randn(1, 1, 32, 32)
for n, k, s, p, d in settings:
    conv = nn.Conv2d(1, 1, k, stride=s, padding=p, dilation=d)
    got = conv(x[..., :n, :n]).shape[-1]
    assert got == out_size(n, k, s, p, d)
    exact = (n + 2 * p - d * (k - 1) - 1) / s + 1
    print(f"n={n:2} k={k} s={s} p={p} d={d}: out {got:2}"
          f" (formula before the floor: {exact:g})")

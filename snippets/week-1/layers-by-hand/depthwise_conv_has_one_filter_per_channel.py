import torch
from torch import nn

c, k = 64, 3
full = nn.Conv2d(c, c, k, padding=1)
# --8<-- [start:gist]
depthwise = nn.Conv2d(c, c, k, padding=1, groups=c)  # groups = in_channels
pointwise = nn.Conv2d(c, c, 1)  # mixes the channels
# --8<-- [end:gist]


def count(*modules):
    return sum(p.numel() for m in modules for p in m.parameters())


assert tuple(depthwise.weight.shape) == (c, 1, k, k)
assert count(full) == c * c * k * k + c
assert count(depthwise) == c * k * k + c
# Output channel 5 of the depthwise conv sees input channel 5 alone.
x = torch.randn(1, c, 8, 8, requires_grad=True)
depthwise(x)[0, 5].sum().backward()
touched = x.grad.abs().sum(dim=(0, 2, 3)).nonzero().flatten().tolist()
assert touched == [5]
print("weight shapes: full", tuple(full.weight.shape),
      "depthwise", tuple(depthwise.weight.shape))
print("parameters: full", count(full), "| depthwise", count(depthwise),
      "| depthwise + pointwise", count(depthwise, pointwise))
print("input channels output channel 5 depends on:", touched)

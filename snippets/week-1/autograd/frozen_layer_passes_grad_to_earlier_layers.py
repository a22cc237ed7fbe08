import copy

import torch
from torch import nn

net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 8),
                    nn.Tanh(), nn.Linear(8, 1))
ref = copy.deepcopy(net)
x, y = torch.randn(16, 4), torch.randn(16, 1)

# --8<-- [start:gist]
# Freeze the MIDDLE layer: chain rule still goes through it
net[2].requires_grad_(False)
nn.functional.mse_loss(net(x), y).backward()
nn.functional.mse_loss(ref(x), y).backward()  # nothing frozen
# --8<-- [end:gist]

# --8<-- [start:gist]
assert net[2].weight.grad is None  # no grad stored for the frozen one
assert torch.allclose(net[0].weight.grad, ref[0].weight.grad)
# --8<-- [end:gist]
print("middle frozen, first layer grad is None:", net[0].weight.grad is None)
print("same grad as unfrozen model:",
      torch.allclose(net[0].weight.grad, ref[0].weight.grad))

# --8<-- [start:gist]
# Freeze the FIRST two layers: nothing upstream needs a gradient,
# so autograd records no graph for them and backward stops early
net.zero_grad()
net[0].requires_grad_(False)
hidden = net[:4](x)
assert not hidden.requires_grad  # no graph behind this tensor
# --8<-- [end:gist]
print("output of frozen layers requires_grad:", hidden.requires_grad)
nn.functional.mse_loss(net[4](hidden), y).backward()
assert net[0].weight.grad is None and net[2].weight.grad is None
assert net[4].weight.grad is not None
print("first two frozen, parameters with a grad:",
      [n for n, p in net.named_parameters() if p.grad is not None])

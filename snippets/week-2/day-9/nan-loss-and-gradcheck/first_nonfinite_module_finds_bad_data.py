import torch
from torch import nn
from torchguide.debug.numerics import find_nonfinite, first_nonfinite_module

x, y = torch.randn(8, 4), torch.randn(8, 1)
x[5, 2] = float("nan")  # the same bad value
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

# Hooks on every module: the first one that sees a non-finite value.
site = first_nonfinite_module(model, x)
assert (site.module, site.kind) == ("", "input")  # the model's own input
print(site)

# Checking the batch itself, before the model, says the same.
(report,) = find_nonfinite({"x": x, "y": y})
assert report.name == "x" and report.first_index == (5, 2)
print(report)

# docexec: raises=ValueError match="can't optimize a non-leaf Tensor"
import warnings

import torch

# --8<-- [start:gist]
# .double() (or .to(device), .cuda()) after requires_grad=True is an op:
# what you keep is its output, a non-leaf; the leaf is lost
w = torch.randn(3, requires_grad=True).double()
# the fix: torch.randn(3, dtype=torch.float64, requires_grad=True)
# --8<-- [end:gist]
assert not w.is_leaf and w.requires_grad
w.pow(2).sum().backward()
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    grad = w.grad
assert grad is None
print("is_leaf:", w.is_leaf, "| grad after backward:", grad)

layer = torch.nn.Linear(2, 2).double()  # a module converts its parameters
assert layer.weight.is_leaf and layer.weight.dtype == torch.float64
print("nn.Linear(2, 2).double(): weight is_leaf", layer.weight.is_leaf)

# --8<-- [start:gist]
torch.optim.SGD([w], lr=0.1)  # refuses it
# --8<-- [end:gist]

import textwrap
import warnings

import torch
from torch.utils.checkpoint import checkpoint

x = torch.ones(3, requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    y = checkpoint(torch.sin, x)  # use_reentrant not passed

messages = [str(w.message) for w in caught]
assert any("use_reentrant parameter should be passed" in m for m in messages)
assert "Starting in PyTorch 2.9" in messages[0]  # ... yet it only warns
# and it falls back to the old, reentrant implementation
assert type(y.grad_fn).__name__ == "CheckpointFunctionBackward"
print(torch.__version__.split("+")[0], "-> a warning, not an error:")
print(textwrap.fill(messages[0].split(" Refer to")[0], 78))
print("implementation used:", type(y.grad_fn).__name__)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    checkpoint(torch.sin, x, use_reentrant=False)
assert not caught
print("with use_reentrant=False: no warning")

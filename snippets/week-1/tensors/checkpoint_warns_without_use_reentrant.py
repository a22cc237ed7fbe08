import warnings

import torch
from torch.utils.checkpoint import checkpoint

x = torch.ones(3, requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    checkpoint(torch.sin, x)  # use_reentrant not passed

messages = [str(w.message) for w in caught]
assert any("use_reentrant parameter should be passed" in m for m in messages)
print(torch.__version__.split("+")[0], "-> a warning, not an error:")
print(messages[0])

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    checkpoint(torch.sin, x, use_reentrant=False)
assert not caught
print("with use_reentrant=False: no warning")

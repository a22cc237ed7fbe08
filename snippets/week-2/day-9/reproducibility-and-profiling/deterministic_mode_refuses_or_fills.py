import torch
from torch import nn

# --8<-- [start:gist]
torch.use_deterministic_algorithms(True)
assert torch.empty(3).isnan().all()  # uninitialized memory is filled: NaN
pooled, indices = nn.MaxPool1d(2, return_indices=True)(torch.randn(1, 1, 4))
try:
    nn.MaxUnpool1d(2)(pooled, indices)  # no deterministic implementation
except RuntimeError as error:
    refused = str(error)
assert "does not have a deterministic implementation" in refused
# --8<-- [end:gist]
print("torch.empty(3) in deterministic mode:", torch.empty(3))
print("MaxUnpool1d:", refused.split(", but")[0])
torch.use_deterministic_algorithms(False)

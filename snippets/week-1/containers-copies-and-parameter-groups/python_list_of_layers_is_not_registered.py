import torch
from torch import nn


# --8<-- [start:gist]
class Plain(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(4, 4) for _ in range(3)]  # a Python list


class Registered(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(4, 4) for _ in range(3))
# --8<-- [end:gist]


for model in (Plain(), Registered()):
    n = sum(p.numel() for p in model.parameters())
    keys = list(model.state_dict())
    model.to(torch.float64)
    dtype = model.layers[0].weight.dtype
    print(f"{type(model).__name__:10} parameters: {n:2}  state_dict keys:"
          f" {len(keys)}  after .to(float64): {dtype}")
    registered = type(model) is Registered
    assert (n == 60 and len(keys) == 6) == registered
    assert (dtype == torch.float64) == registered

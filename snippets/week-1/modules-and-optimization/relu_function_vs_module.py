import inspect

import torch
import torch.nn.functional as F
from torch import nn

x = torch.randn(6)
# --8<-- [start:gist]
assert torch.equal(F.relu(x), nn.ReLU()(x))  # same computation
# --8<-- [end:gist]
print("same result:", torch.equal(F.relu(x), nn.ReLU()(x)))

relu = nn.ReLU()
assert "F.relu(" in inspect.getsource(nn.ReLU.forward)  # forward calls it
assert not list(relu.parameters()) and not relu.state_dict()
assert nn.ReLU.__constants__ == ["inplace"]  # its only setting
print("nn.ReLU parameters:", list(relu.parameters()),
      "| state_dict:", dict(relu.state_dict()))


class WithModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.fc(x))


class WithFunction(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)

    def forward(self, x):
        return F.relu(self.fc(x))


# --8<-- [start:gist]
# The module version is visible: in print(model), named_modules and hooks
a, b = WithModule(), WithFunction()
assert "act" in dict(a.named_modules()) and "act" not in dict(b.named_modules())
# --8<-- [end:gist]
print(a)
print(b)
# --8<-- [start:gist]
seen = []
a.act.register_forward_hook(lambda mod, inp, out: seen.append(out.shape))
a(torch.ones(2, 3))
assert seen == [torch.Size([2, 3])]
print("forward hook on model.act saw:", seen)
a.act = nn.GELU()  # and it can be swapped without touching forward()
x3 = torch.randn(2, 3)
assert torch.equal(a(x3), F.gelu(a.fc(x3)))
# --8<-- [end:gist]
print("swapped:", a.act)

# Both accept inplace=True: the result overwrites the input's memory
y = torch.randn(4)
out = F.relu(y, inplace=True)
assert out.data_ptr() == y.data_ptr()
print("F.relu(y, inplace=True) reuses y's storage:",
      out.data_ptr() == y.data_ptr(), "| module repr:", nn.ReLU(inplace=True))

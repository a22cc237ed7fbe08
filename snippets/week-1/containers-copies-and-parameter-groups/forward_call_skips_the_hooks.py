import torch
from torch import nn

layer = nn.Linear(3, 2)
calls = []
layer.register_forward_pre_hook(lambda m, args: calls.append("pre"))
layer.register_forward_hook(lambda m, args, out: calls.append("post"))
x = torch.randn(4, 3)
# --8<-- [start:gist]
layer(x)  # __call__: pre-hooks, forward, hooks
through_call = list(calls)
calls.clear()
layer.forward(x)  # forward alone
assert through_call == ["pre", "post"] and calls == []
# --8<-- [end:gist]
print("model(x) ran the hooks:", through_call)
print("model.forward(x) ran the hooks:", calls)

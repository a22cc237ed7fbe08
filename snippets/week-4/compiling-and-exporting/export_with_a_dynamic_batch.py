import torch
from torch.export import Dim, export

model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU())
example = torch.randn(2, 4)
# --8<-- [start:gist]
static = export(model, (example,))  # the example's batch of 2 is baked in
dynamic = export(model, (example,), dynamic_shapes={"input": {0: Dim("batch")}})
for batch in (1, 3, 16):
    x = torch.randn(batch, 4)
    assert torch.allclose(dynamic.module()(x), model(x))
try:
    static.module()(torch.randn(3, 4))
    refused = ""
except AssertionError as error:
    refused = str(error).splitlines()[0]
# --8<-- [end:gist]
assert "size()[0] == 2" in refused
print("static, batch 3:", refused)
print("dynamic ranges:", dynamic.range_constraints)

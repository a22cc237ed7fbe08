import copy

import torch
from torch import nn
from torchguide.training import clone_grads

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
twin = copy.deepcopy(model)
loss_fn = nn.MSELoss()  # mean over the batch
x, y = torch.randn(64, 8), torch.randn(64, 1)

# --8<-- [start:gist]
# One big batch of 64
loss_fn(model(x), y).backward()
big = clone_grads(model)

# k = 4 micro-batches of 16: backward each, no zero_grad in between
k = 4
for xb, yb in zip(x.chunk(k), y.chunk(k)):
    (loss_fn(twin(xb), yb) / k).backward()  # scale so the SUM is a mean
accum = clone_grads(twin)

for name in big:
    assert torch.allclose(big[name], accum[name], atol=1e-6)
# --8<-- [end:gist]
    err = (big[name] - accum[name]).abs().max().item()
    print(f"{name:9s} max |big - accumulated| = {err:.1e}")

# Forgetting "/ k" gives k times the gradient (a k-times larger step)
twin.zero_grad()
for xb, yb in zip(x.chunk(k), y.chunk(k)):
    loss_fn(twin(xb), yb).backward()
unscaled = twin[0].weight.grad
assert torch.allclose(unscaled, k * big["0.weight"], atol=1e-5)
ratio = (unscaled.norm() / big["0.weight"].norm()).item()
print(f"without / k: grad norm ratio = {ratio:.3f}")

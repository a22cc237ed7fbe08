import copy

import torch
from torch import nn

model = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.Linear(16, 1))
twin = copy.deepcopy(model)
loss_fn = nn.MSELoss()
x, y = torch.randn(64, 8), torch.randn(64, 1)
x[:16] += 3.0  # the micro-batches differ in distribution

# --8<-- [start:gist]
loss_fn(model(x), y).backward()
k = 4
for xb, yb in zip(x.chunk(k), y.chunk(k)):
    (loss_fn(twin(xb), yb) / k).backward()

big, accum = model[0].weight.grad, twin[0].weight.grad
rel = ((big - accum).norm() / big.norm()).item()
assert not torch.allclose(big, accum, atol=1e-3)
# BatchNorm normalises with each micro-batch's own mean/var
print(f"relative gradient difference: {rel:.2f}")
# --8<-- [end:gist]
running_big = model[1].running_mean[:3]
running_acc = twin[1].running_mean[:3]
assert not torch.allclose(running_big, running_acc)
# the running statistics were updated once per micro-batch
# --8<-- [start:gist]
assert model[1].num_batches_tracked == 1 and twin[1].num_batches_tracked == k
# --8<-- [end:gist]
print("running_mean big batch :", [round(v, 3) for v in running_big.tolist()])
print("running_mean 4 updates :", [round(v, 3) for v in running_acc.tolist()])

import math

import torch
from torch import nn

layers = []
for _ in range(30):  # the exploding tanh stack: std 3/sqrt(n)
    linear = nn.Linear(64, 64)
    nn.init.normal_(linear.weight, std=3 / math.sqrt(64))
    layers += [linear, nn.Tanh()]
model = nn.Sequential(*layers, nn.Linear(64, 1))
x, y = torch.randn(128, 64), torch.randn(128, 1)
nn.functional.mse_loss(model(x), y).backward()

# --8<-- [start:gist]
first, last = model[0].weight, model[58].weight
before = first.grad.norm() / last.grad.norm()
total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
after = first.grad.norm() / last.grad.norm()
clipped_total = nn.utils.get_total_norm(
    [p.grad for p in model.parameters()])

# every gradient was multiplied by the same factor, 1 / total
assert total > 100 and abs(clipped_total - 1) < 1e-4
assert torch.isclose(before, after, rtol=1e-5)
print(f"total norm: {total:.0f} -> {clipped_total:.3f}")
print(f"layer 1 / layer 30 gradient: {before:.0f} before, {after:.0f} after")
# --8<-- [end:gist]

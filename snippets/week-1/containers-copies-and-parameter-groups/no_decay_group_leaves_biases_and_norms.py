import torch
from torch import nn

model = nn.Sequential(nn.Linear(4, 8), nn.LayerNorm(8), nn.Linear(8, 2))
# --8<-- [start:gist]
decay = [p for p in model.parameters() if p.ndim >= 2]  # matrices
no_decay = [p for p in model.parameters() if p.ndim < 2]  # biases, norms
optimizer = torch.optim.AdamW([
    {"params": decay, "weight_decay": 0.1},
    {"params": no_decay, "weight_decay": 0.0},
], lr=0.01)
# --8<-- [end:gist]
before = [p.detach().clone() for p in model.parameters()]
for p in model.parameters():
    p.grad = torch.zeros_like(p)  # a zero gradient: only decay moves
optimizer.step()
moved = {name: not torch.equal(p, b) for (name, p), b
         in zip(model.named_parameters(), before)}
assert moved == {name: p.ndim >= 2 for name, p in model.named_parameters()}
for name, changed in moved.items():
    print(f"{name:9} {'decayed' if changed else 'unchanged'}")
print("groups:", [(len(g["params"]), g["weight_decay"])
                  for g in optimizer.param_groups])

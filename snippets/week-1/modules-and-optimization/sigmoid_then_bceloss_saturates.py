import math

import torch
from torch import nn

logits = torch.tensor([5.0, 16.0, 17.0, 30.0, 200.0])
target = torch.zeros_like(logits)  # confidently WRONG predictions
exact = nn.functional.softplus(logits.double())  # true loss, float64

x1 = logits.clone().requires_grad_()
# --8<-- [start:gist]
p = torch.sigmoid(x1)
naive = nn.BCELoss(reduction="none")(p, target)
naive.sum().backward()
# --8<-- [end:gist]

x2 = logits.clone().requires_grad_()
# --8<-- [start:gist]
fused = nn.BCEWithLogitsLoss(reduction="none")(x2, target)
fused.sum().backward()
# --8<-- [end:gist]

print("logit  sigmoid      BCELoss  grad | WithLogits  grad  exact")
for i, z in enumerate(logits.tolist()):
    print(f"{z:5.0f}  {p[i].item():.9f}  {naive[i].item():7.2f}"
          f"  {x1.grad[i].item():4.2f} | {fused[i].item():10.2f}"
          f"  {x2.grad[i].item():4.2f}  {exact[i].item():6.2f}")

# float32 sigmoid rounds to exactly 1.0 from logit 24 ln 2 = 16.636 on
edge = 24 * math.log(2)  # exp(-z) < 2**-24: 1 + exp(-z) rounds to 1
below, above = torch.tensor([edge - 1e-4, edge + 1e-4])
assert torch.sigmoid(below) < 1.0 and torch.sigmoid(above) == 1.0
# --8<-- [start:gist]
assert p[1] < 1.0 and p[2] == 1.0  # logits 16 and 17: 1.0 from 16.636 on
# BCELoss clamps log(1 - 1.0) = -inf to -100: loss stuck at 100 ...
assert torch.equal(naive[2:], torch.full((3,), 100.0))
# ... and the gradient reaching the logit is exactly zero: no learning
assert torch.equal(x1.grad[2:], torch.zeros(3))
# --8<-- [end:gist]
# no NaN, no inf: the failure is silent
assert torch.isfinite(naive).all() and torch.isfinite(x1.grad).all()
# the fused loss is exact (log-sum-exp form) and keeps gradient 1
assert torch.allclose(fused.double(), exact, rtol=1e-6)
assert torch.allclose(x2.grad[2:], torch.ones(3))

# CPU autocast does not refuse BCELoss (CUDA autocast does)
with torch.autocast("cpu", dtype=torch.bfloat16):
    cpu_loss = nn.BCELoss()(torch.sigmoid(logits), target)
assert torch.isfinite(cpu_loss)
print("BCELoss under CPU autocast runs:", cpu_loss.dtype)
print(f"sigmoid(z) == 1.0 in float32 from z = 24 ln 2 = {edge:.3f}")

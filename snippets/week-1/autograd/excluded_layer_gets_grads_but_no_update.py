import torch
from torch import nn

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
# --8<-- [start:gist]
frozen = model[0]  # requires_grad left True, but ...
opt = torch.optim.SGD(model[2].parameters(), lr=0.1)  # ... not in opt
# --8<-- [end:gist]
before = frozen.weight.detach().clone()

x, y = torch.randn(16, 4), torch.randn(16, 1)
grad_norms = []
for _ in range(3):
    opt.zero_grad()  # only zeroes the params the optimizer knows
    nn.functional.mse_loss(model(x), y).backward()
    opt.step()
    grad_norms.append(frozen.weight.grad.norm().item())

# --8<-- [start:gist]
# 1. gradients ARE computed and stored for the excluded layer
assert frozen.weight.grad is not None
# --8<-- [end:gist]
grad_bytes = sum(p.grad.numel() * p.grad.element_size()
                 for p in frozen.parameters())
print("excluded layer holds grads:", grad_bytes, "bytes")
# --8<-- [start:gist]
# 2. ... but its weights never change
assert torch.equal(frozen.weight, before)
print("excluded layer weights unchanged:", torch.equal(frozen.weight, before))
# 3. opt.zero_grad() never clears them, so they keep accumulating
assert grad_norms[1] > grad_norms[0] and grad_norms[2] > grad_norms[1]
print("its grad norm after each step:", [round(g, 3) for g in grad_norms])
# --8<-- [end:gist]
model.zero_grad()  # the module's zero_grad clears every parameter
assert frozen.weight.grad is None

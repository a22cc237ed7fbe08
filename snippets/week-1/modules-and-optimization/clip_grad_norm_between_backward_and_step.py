import torch
from torch import nn
from torchguide.training import grad_norm

model = nn.Linear(10, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(32, 10), 50 * torch.randn(32, 1)  # a huge-loss batch

opt.zero_grad()
# --8<-- [start:gist]
nn.functional.mse_loss(model(x), y).backward()        # 1. gradients
before = torch.cat([p.grad.flatten() for p in model.parameters()])
total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)  # 2.
after = torch.cat([p.grad.flatten() for p in model.parameters()])
opt.step()                                            # 3. clipped update

# returns the norm measured BEFORE clipping
assert abs(total.item() - before.norm().item()) < 1e-3
# the grads are rescaled in place to norm max_norm; direction unchanged
assert abs(grad_norm(model) - 1.0) < 1e-4
cos = nn.functional.cosine_similarity(before, after, dim=0).item()
assert abs(cos - 1) < 1e-6
# --8<-- [end:gist]
print(f"returned total norm: {total.item():.1f}")
print(f"norm after clipping: {grad_norm(model):.4f}, cosine = {cos:.4f}")

# clip_grad_value_ clamps each element instead (direction changes)
for p, g in zip(model.parameters(), before.split([10, 1])):
    p.grad = g.view_as(p).clone()
nn.utils.clip_grad_value_(model.parameters(), clip_value=0.5)
clamped = torch.cat([p.grad.flatten() for p in model.parameters()])
assert clamped.abs().max() <= 0.5
cos = nn.functional.cosine_similarity(before, clamped, dim=0).item()
assert cos < 0.999
print(f"clip_grad_value_: max |g| = {clamped.abs().max():.2f}, "
      f"cosine = {cos:.3f}")

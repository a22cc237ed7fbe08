import torch
from torch import nn
from torchguide.training import grad_norm

model = nn.Linear(10, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu")  # same API as on CUDA
x, y = torch.randn(32, 10), torch.randn(32, 1)

loss = nn.functional.mse_loss(model(x), y)
scaler.scale(loss).backward()
scale = scaler.get_scale()      # 65536.0 by default
scaled = grad_norm(model)       # grads are multiplied by the scale
scaler.unscale_(opt)            # divide them back IN PLACE ...
true = grad_norm(model)
total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
scaler.step(opt)                # ... so step() does not unscale twice
scaler.update()

assert abs(scaled / true - scale) < 1.0
assert abs(total.item() - true) < 1e-4
print(f"scale = {scale:.0f}; norm before unscale_: {scaled:.0f}")
print(f"norm after unscale_: {true:.3f} (what clipping must measure)")

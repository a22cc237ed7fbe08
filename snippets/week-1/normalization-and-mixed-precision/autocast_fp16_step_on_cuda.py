# docexec: cuda
import torch
import torch.nn.functional as F
from torch import nn

model = nn.Sequential(nn.Linear(64, 64), nn.LayerNorm(64), nn.Linear(64, 8))
model = model.cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
scaler = torch.amp.GradScaler("cuda")
x = torch.randn(32, 64, device="cuda")
target = torch.randint(0, 8, (32,), device="cuda")

# --8<-- [start:gist]
with torch.autocast("cuda", dtype=torch.float16):
    hidden = model[0](x)
    normed = model[1](hidden)  # CUDA's float32 list: layer_norm
    logits = model[2](normed)
    probs = logits.softmax(-1)  # and softmax
    loss = F.cross_entropy(logits, target)
assert hidden.dtype == logits.dtype == torch.float16
assert normed.dtype == probs.dtype == loss.dtype == torch.float32
# --8<-- [end:gist]
print("linear:", logits.dtype, "| layer_norm, softmax, cross_entropy:",
      normed.dtype)

scaler.scale(loss).backward()
assert model[0].weight.grad.dtype == torch.float32
scale = scaler.get_scale()
scaler.step(optimizer)  # unscales, checks for inf/NaN, then steps
scaler.update()
assert scale == 65536.0 and scaler.get_scale() == scale  # a clean step
assert all(p.dtype == torch.float32 for p in model.parameters())
state = optimizer.state[model[0].weight]
assert state["exp_avg"].dtype == torch.float32
print("weights, their grads and AdamW's state: float32 | scale", scale)

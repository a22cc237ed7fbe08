import torch
from torch import nn

model = nn.Linear(512, 512)
x = torch.randn(64, 512)


def param_bytes(m):
    return sum(p.nbytes for p in m.parameters())


# --8<-- [start:gist]
# Mixed precision (autocast): matmul runs in bfloat16, weights stay float32,
# so activations shrink but the parameters (and optimizer state) do not.
with torch.autocast("cpu", dtype=torch.bfloat16):
    y = model(x)
assert y.dtype == torch.bfloat16 and model.weight.dtype == torch.float32
assert y.nbytes == x.nbytes // 2
print("autocast output:", y.dtype, "| weight:", model.weight.dtype)
print("activation bytes float32 -> bfloat16:", x.nbytes, "->", y.nbytes)
# --8<-- [end:gist]

# Convolutions run in bfloat16 too; the optimizer state follows the weights.
conv = nn.Conv2d(3, 8, 3)
with torch.autocast("cpu", dtype=torch.bfloat16):
    assert conv(torch.randn(1, 3, 8, 8)).dtype == torch.bfloat16
    loss = model(x).float().pow(2).mean()
opt = torch.optim.Adam(model.parameters())
loss.backward()
opt.step()
# --8<-- [start:gist]
assert opt.state[model.weight]["exp_avg"].dtype == torch.float32
# --8<-- [end:gist]
print("conv output under autocast: bfloat16 | Adam state:",
      opt.state[model.weight]["exp_avg"].dtype)

# Casting the whole model halves the parameter bytes.
fp32_bytes = param_bytes(model)
half_bytes = param_bytes(model.to(torch.bfloat16))
assert half_bytes * 2 == fp32_bytes
print("parameter bytes float32 -> bfloat16:", fp32_bytes, "->", half_bytes)

import copy

import torch
import torch.nn.functional as F
from torch import nn

model = nn.Sequential(nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 512))
x, y = torch.randn(64, 256), torch.randn(64, 512)


def first_layer_grad(dtype=None, scaled=False):
    net = copy.deepcopy(model)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu", enabled=scaled)  # 65536 at first
    with torch.autocast("cpu", dtype=dtype or torch.float32,
                        enabled=dtype is not None):
        out = net(x)
    # a small loss: each output's gradient is about 6e-5 / (64 * 512) = 2e-9
    loss = 3e-5 * F.mse_loss(out.float(), y)
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)  # the true gradient again, in float32
    return net[0].weight.grad


def error(grad):
    return ((grad - exact).norm() / exact.norm()).item()


exact = first_layer_grad()
out = model(x)
(out_grad,) = torch.autograd.grad(3e-5 * F.mse_loss(out, y), out)
assert (out_grad.half() == 0).all()  # each below float16's smallest step
print(f"largest gradient of an output: {out_grad.abs().max().item():.1e};",
      f"float16's smallest subnormal: {2**-24:.1e}")
# --8<-- [start:gist]
fp16 = error(first_layer_grad(torch.float16))
fp16_scaled = error(first_layer_grad(torch.float16, scaled=True))
bf16 = error(first_layer_grad(torch.bfloat16))
assert fp16 == 1.0  # every gradient flushed to zero
assert fp16_scaled < 0.05 and bf16 < 0.1  # kept, to 16-bit rounding
# --8<-- [end:gist]
print("relative error of the first layer's gradient against float32:")
print(f"  float16, no scaling : {fp16:.3f} (all zero)")
print(f"  float16, GradScaler : {fp16_scaled:.3f}")
print(f"  bfloat16, no scaling: {bf16:.3f}")

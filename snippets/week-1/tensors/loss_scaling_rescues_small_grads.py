import torch

# A float16 weight whose true gradient, 1e-8, is below float16's smallest
# subnormal (about 6e-8).
w = torch.ones(4, dtype=torch.float16, requires_grad=True)
x = torch.full((4,), 1e-4, dtype=torch.float16)


def grad_with_scale(scale):
    w.grad = None
    ((w * x * 1e-4).sum() * scale).backward()
    return w.grad.float() / scale  # unscale in float32


unscaled = grad_with_scale(1.0)
too_big = grad_with_scale(65536.0)  # 65536 itself overflows float16
good = grad_with_scale(1024.0)

assert (unscaled == 0).all()
assert torch.isinf(too_big).all()
assert torch.allclose(good, torch.full((4,), 1e-8), rtol=1e-2)
print("scale 1     :", unscaled)
print("scale 65536 :", too_big)
print("scale 1024  :", good)

# GradScaler automates this: it starts high and halves the scale (skipping
# the step) whenever it finds inf/NaN gradients.
scaler = torch.amp.GradScaler("cpu")
print("GradScaler init scale:", scaler.get_scale(),
      "| backoff factor:", scaler.get_backoff_factor())

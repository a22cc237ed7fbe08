import torch

# A float16 weight whose true gradient, 1e-8, is below float16's smallest
# subnormal (about 6e-8).
w = torch.ones(4, dtype=torch.float16, requires_grad=True)
x = torch.full((4,), 1e-4, dtype=torch.float16)


def grad_with_scale(scale):
    w.grad = None
    ((w * x * 1e-4).sum() * scale).backward()
    return w.grad.float() / scale  # unscale in float32


# --8<-- [start:gist]
unscaled = grad_with_scale(1.0)
too_big = grad_with_scale(65536.0)  # 65536 itself overflows float16
good = grad_with_scale(1024.0)

assert (unscaled == 0).all()
assert torch.isinf(too_big).all()
assert torch.allclose(good, torch.full((4,), 1e-8), rtol=1e-2)
# --8<-- [end:gist]
print("scale 1     :", unscaled)
print("scale 65536 :", too_big)
print("scale 1024  :", good)

# bfloat16 has float32's range: the same gradient does not underflow
wb = torch.ones(4, dtype=torch.bfloat16, requires_grad=True)
(wb * x.bfloat16() * 1e-4).sum().backward()
assert torch.allclose(wb.grad.float(), torch.full((4,), 1e-8), rtol=1e-2)
print("bfloat16, no scaling:", wb.grad.float())

# GradScaler automates this: it starts at 65536 and, when the gradients
# hold inf/NaN, skips that optimizer step and halves the scale.
scaler = torch.amp.GradScaler("cpu")
v = torch.nn.Parameter(torch.ones(2))
opt = torch.optim.SGD([v], lr=0.1)
scaler.scale(v.sum()).backward()
v.grad[0] = float("inf")  # as if the scaled gradient overflowed
start = scaler.get_scale()
# --8<-- [start:gist]
scaler.step(opt)
scaler.update()
assert start == 65536.0 and torch.equal(v, torch.ones(2))  # step skipped
assert scaler.get_scale() == start / 2
# --8<-- [end:gist]
print("GradScaler scale:", start, "-> after an inf gradient:",
      scaler.get_scale(), "| step skipped:", torch.equal(v, torch.ones(2)))

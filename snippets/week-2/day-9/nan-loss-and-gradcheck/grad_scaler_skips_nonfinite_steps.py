# docexec: timeout=60
import torch

w = torch.nn.Parameter(torch.ones(2))
opt = torch.optim.SGD([w], lr=0.1)
scaler = torch.amp.GradScaler("cpu", init_scale=2.0**16)

# a step whose gradient overflowed: the scaler skips it, halves the scale
overflowing = torch.tensor([float("inf"), 1.0])
scaler.scale((w * overflowing).sum()).backward()
scaler.step(opt)
scaler.update()
assert w.tolist() == [1.0, 1.0] and scaler.get_scale() == 2.0**15
print("after an inf gradient: w", w.tolist(), "scale", scaler.get_scale())

# a finite step goes through, with the gradient unscaled first
opt.zero_grad()
scaler.scale((w * torch.tensor([1.0, 1.0])).sum()).backward()
scaler.step(opt)
scaler.update()
assert torch.allclose(w, torch.tensor([0.9, 0.9]))
print("after a finite gradient: w", [round(v, 4) for v in w.tolist()])

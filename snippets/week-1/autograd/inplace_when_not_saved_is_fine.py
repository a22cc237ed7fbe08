import torch

# Out-of-place reference
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
ref = ((a + 1) * 2).exp().sum()
ref.backward()
ref_grad = a.grad.clone()

# Same math, in-place: `a + 1` saves nothing (its gradient is 1), and
# mul_ by a constant needs only the constant, so nothing saved is overwritten.
a.grad = None
h = a + 1
h.mul_(2)
h.exp_()  # exp_ saves its own result; nothing changes h afterwards
h.sum().backward()
assert torch.allclose(a.grad, ref_grad)
print("in-place grad == out-of-place grad:", torch.allclose(a.grad, ref_grad))
print("version counter of h:", h._version)

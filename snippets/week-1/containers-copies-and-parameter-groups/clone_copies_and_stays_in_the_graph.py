import torch

x = torch.randn(3, requires_grad=True)
c = x.clone()
recorded = type(c.grad_fn).__name__
d = x.detach()
assert c.data_ptr() != x.data_ptr() and d.data_ptr() == x.data_ptr()
assert recorded == "CloneBackward0" and not d.requires_grad
c.mul_(2)  # a write to the copy leaves x alone
(c * 3).sum().backward()
assert torch.equal(x.grad, torch.full((3,), 6.0))
print("clone: new memory, grad_fn", recorded)
print("detach: same memory as x, requires_grad", d.requires_grad)
print("gradient through the clone:", x.grad)

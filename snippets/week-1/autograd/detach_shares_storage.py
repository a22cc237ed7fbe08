# docexec: raises=RuntimeError match="modified by an inplace operation"
import torch

x = torch.ones(3, requires_grad=True)
y = x.exp()  # exp saves its output y for backward
d = y.detach()

# detach() is not a copy: same memory, same version counter
assert d.data_ptr() == y.data_ptr() and not d.requires_grad
print("detached shares storage:", d.data_ptr() == y.data_ptr())
d.zero_()  # silently changes y as well ...
assert y._version == 1 and y.sum().item() == 0
print("y after d.zero_():", y)
print("... and autograd notices at backward time:")
y.sum().backward()

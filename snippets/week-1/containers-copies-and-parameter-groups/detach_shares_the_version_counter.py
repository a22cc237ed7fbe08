# docexec: raises=RuntimeError match="modified by an inplace operation"
import torch

x = torch.randn(3, requires_grad=True)
y = x.sigmoid()  # its backward reads y itself
d = y.detach()  # same storage, same version counter
d.zero_()  # y's version goes from 0 to 1
print("y's version after the write through detach():", y._version)
y.sum().backward()  # autograd sees the change and refuses

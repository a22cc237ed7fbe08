import torch

x = torch.randn(3, requires_grad=True)
y = x.sigmoid()
right = torch.autograd.grad(y.sum(), x, retain_graph=True)[0]
# --8<-- [start:gist]
y.data.zero_()  # .data has a version counter of its own
assert y._version == 0  # autograd was not told
(wrong,) = torch.autograd.grad(y.sum(), x)  # runs, silently
assert torch.equal(wrong, torch.zeros(3))  # y * (1 - y) with y = 0
# --8<-- [end:gist]
assert not torch.allclose(wrong, right)
print("gradient before the write:", right)
print("gradient after y.data.zero_():", wrong, "(no error)")

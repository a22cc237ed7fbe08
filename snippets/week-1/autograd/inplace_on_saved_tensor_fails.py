# docexec: raises=RuntimeError match="modified by an inplace operation"
import torch

x = torch.ones(3, requires_grad=True)
y = x.sigmoid()  # sigmoid saves its OUTPUT y for the backward pass
z = (y * 2).sum()
print("version of y before +=:", y._version)
y += 1  # in-place: allowed here, no error yet
print("version of y after  +=:", y._version)
assert y._version == 1
print("the in-place op ran; the error comes at backward:")
z.backward()

import torch

x = torch.randn(4, requires_grad=True)
y = (x**3).sum()

# --8<-- [start:gist]
(dy_dx,) = torch.autograd.grad(y, x, create_graph=True)  # returns, records
assert torch.allclose(dy_dx, 3 * x**2) and x.grad is None  # .grad untouched
(d2y_dx2,) = torch.autograd.grad(dy_dx.sum(), x)
assert torch.allclose(d2y_dx2, 6 * x)
# --8<-- [end:gist]
print("first derivative == 3x^2:", True, "| x.grad:", x.grad)
print("second derivative == 6x:", True)

# --8<-- [start:gist]
(plain,) = torch.autograd.grad((x**3).sum(), x)  # create_graph=False
assert not plain.requires_grad  # a constant: nothing to differentiate
# --8<-- [end:gist]
print("without create_graph: requires_grad", plain.requires_grad)

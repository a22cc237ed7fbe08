import torch
from torch.autograd.functional import jacobian

W = torch.randn(2, 3)
passes = []  # one entry per backward pass through f


def f(x):
    pre = W @ x
    pre.register_hook(lambda grad: passes.append(1))
    return torch.tanh(pre)  # R^3 -> R^2


x = torch.randn(3, requires_grad=True)
v = torch.randn(2)  # one weight per output

# --8<-- [start:gist]
f(x).backward(gradient=v)  # backward computes v^T J, never J itself
J = jacobian(f, x.detach())  # the full 2 x 3 Jacobian, for comparison
assert torch.allclose(x.grad, v @ J, atol=1e-6)
# --8<-- [end:gist]
assert passes == [1, 1, 1]  # backward(v) once, then once per output row
print("x.grad == v @ J:", True, "| J has shape", tuple(J.shape))
print("backward passes: backward(v) 1, jacobian", len(passes) - 1)

# --8<-- [start:gist]
x.grad = None  # gradient=ones is the gradient of the sum of the outputs
f(x).backward(gradient=torch.ones(2))
via_sum = x.grad.clone()
x.grad = None
f(x).sum().backward()
assert torch.allclose(x.grad, via_sum)
# --8<-- [end:gist]
print("backward(ones) == sum().backward():", True)

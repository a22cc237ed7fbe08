import torch
from torch.autograd import gradcheck, gradgradcheck


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor) -> torch.Tensor:
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, grad_output: torch.Tensor) -> torch.Tensor:
        (x,) = ctx.saved_tensors
        return grad_output * 3 * x**2  # chain rule: upstream times local


x = torch.randn(3, dtype=torch.float64, requires_grad=True)
assert gradcheck(Cube.apply, (x,))
# the backward is itself differentiable, so second derivatives check too
assert gradgradcheck(Cube.apply, (x,))
print("gradcheck:", True, " gradgradcheck:", True)

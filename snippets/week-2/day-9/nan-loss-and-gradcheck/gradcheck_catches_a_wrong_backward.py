# docexec: raises=RuntimeError match="Jacobian mismatch"
import torch
from torch.autograd import gradcheck


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor) -> torch.Tensor:
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    # --8<-- [start:gist]
    def backward(ctx, grad_output: torch.Tensor) -> torch.Tensor:
        (x,) = ctx.saved_tensors
        return 3 * x**2  # bug: forgets to multiply by grad_output
    # --8<-- [end:gist]


x = torch.randn(3, dtype=torch.float64, requires_grad=True)

# --8<-- [start:gist]
# The usual quick test passes: with .sum(), grad_output is all ones.
Cube.apply(x).sum().backward()
assert torch.allclose(x.grad, 3 * x.detach() ** 2)
print("matches 3x^2 after .sum().backward():", True)

gradcheck(Cube.apply, (x,))  # raises GradcheckError
# --8<-- [end:gist]

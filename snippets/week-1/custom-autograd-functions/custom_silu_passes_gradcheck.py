import torch
import torch.nn.functional as F
from torch.autograd import gradcheck


# --8<-- [start:gist]
class SiLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)  # only the input: backward recomputes
        return x * torch.sigmoid(x)

    @staticmethod
    def backward(ctx, grad_output):  # one gradient per forward input
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)
        return grad_output * s * (1 + x * (1 - s))  # the chain rule
# --8<-- [end:gist]


x = torch.randn(5, 4, dtype=torch.float64, requires_grad=True)
# --8<-- [start:gist]
assert gradcheck(SiLU.apply, (x,))  # against finite differences, float64
# --8<-- [end:gist]
print("gradcheck passed:", True)

grad_ours, = torch.autograd.grad(SiLU.apply(x).sum(), x)
grad_torch, = torch.autograd.grad(F.silu(x).sum(), x)
assert torch.allclose(grad_ours, grad_torch)
print("same gradient as F.silu:", True)

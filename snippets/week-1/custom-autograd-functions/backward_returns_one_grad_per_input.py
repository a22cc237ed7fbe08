# docexec: raises=RuntimeError match="incorrect number of gradients"
import torch


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, factor):  # factor is a Python float
        ctx.factor = factor  # not a tensor: stored on ctx
        return x * factor

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.factor  # the fix: return ..., None


x = torch.randn(3, requires_grad=True)
Scale.apply(x, 2.0).sum().backward()

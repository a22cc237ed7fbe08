# expect: for x of shape (4,) and beta 1 (torch.float32) your backward returned None as the gradient for beta; expected a tensor
# The mistake: beta treated as a fixed setting, stored on ctx with a None gradient; a learned beta never moves.
import torch


class Swish(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, beta):
        ctx.save_for_backward(x)
        ctx.beta = beta
        return x * torch.sigmoid(beta * x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(ctx.beta * x)
        return grad_output * (s + x * ctx.beta * s * (1 - s)), None


def swish(x, beta):
    return Swish.apply(x, beta)

# expect: for x of shape (4,) and beta 1 (torch.float32) your gradient for x is
# The mistake: d/dx of x * sigmoid(beta x) taken as sigmoid(beta x) alone: the second factor's change is lost.
import torch


class Swish(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, beta):
        ctx.save_for_backward(x, beta)
        return x * torch.sigmoid(beta * x)

    @staticmethod
    def backward(ctx, grad_output):
        x, beta = ctx.saved_tensors
        s = torch.sigmoid(beta * x)
        return grad_output * s, (grad_output * x * x * s * (1 - s)).sum()


def swish(x, beta):
    return Swish.apply(x, beta)

# expect: for x of shape (4,) and beta 1 (torch.float32) your gradient for x is
# The mistake: the local derivative returned as the gradient, without the chain rule's grad_output.
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
        slope = s * (1 - s)
        return s + x * beta * slope, (x * x * slope).sum()


def swish(x, beta):
    return Swish.apply(x, beta)

# expect: your gradient for beta is
# The mistake: dy/dbeta taken as x * s', one factor x short: the inner derivative of beta * x is x.
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
        return grad_output * (s + x * beta * slope), (grad_output * x * slope).sum()


def swish(x, beta):
    return Swish.apply(x, beta)

# expect: your Function saved no tensor with ctx.save_for_backward
# The mistake: x and beta kept as ctx attributes: an in-place change after forward goes unnoticed.
import torch


class Swish(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, beta):
        ctx.x, ctx.beta = x, beta
        return x * torch.sigmoid(beta * x)

    @staticmethod
    def backward(ctx, grad_output):
        x, beta = ctx.x, ctx.beta
        s = torch.sigmoid(beta * x)
        slope = s * (1 - s)
        return grad_output * (s + x * beta * slope), (grad_output * x * x * slope).sum()


def swish(x, beta):
    return Swish.apply(x, beta)

import torch


class Swish(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, beta):
        raise NotImplementedError

    @staticmethod
    def backward(ctx, grad_output):
        raise NotImplementedError


def swish(x: torch.Tensor, beta: torch.Tensor):
    """x * sigmoid(beta * x), through the Function above."""
    return Swish.apply(x, beta)

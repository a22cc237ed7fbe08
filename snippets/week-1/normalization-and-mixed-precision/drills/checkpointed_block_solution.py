import torch
import torch.nn.functional as F
from torchguide.drills import check_here


def block(x, w1, w2):
    return F.linear(F.gelu(F.linear(x, w1)), w2)


class Checkpointed(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w1, w2):
        ctx.save_for_backward(x, w1, w2)  # the inputs only
        return block(x, w1, w2)  # a Function's forward records nothing

    @staticmethod
    def backward(ctx, grad_y):
        inputs = [t.detach().requires_grad_() for t in ctx.saved_tensors]
        with torch.enable_grad():  # recompute, this time with a graph
            y = block(*inputs)
        return torch.autograd.grad(y, inputs, grad_y)


def checkpointed_block(x, w1, w2):
    """gelu(x W1^T) W2^T, keeping nothing but its inputs."""
    return Checkpointed.apply(x, w1, w2)


check_here("checkpointed_block", checkpointed_block)

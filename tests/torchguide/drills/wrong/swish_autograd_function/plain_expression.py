# expect: not by a torch.autograd.Function: autograd differentiated your forward
# The mistake: the expression alone; autograd writes its backward, so nothing of yours is checked.
import torch


def swish(x, beta):
    return x * torch.sigmoid(beta * x)

# expect: (torch.float64, seed 7) your running_mean is
# The mistake: momentum as an optimizer's, weighing the old running value.
import torch


def batch_norm(x, running_mean, running_var, weight, bias, training, momentum, eps):
    at_channel = (1, -1) + (1,) * (x.dim() - 2)
    if training:
        dims = [0, *range(2, x.dim())]
        mean, var = x.mean(dims), x.var(dims, correction=0)
        unbiased = x.detach().var(dims)
        new_mean = momentum * running_mean + (1 - momentum) * mean.detach()
        new_var = momentum * running_var + (1 - momentum) * unbiased
    else:
        mean, var = running_mean, running_var
        new_mean, new_var = running_mean.clone(), running_var.clone()
    y = (x - mean.view(at_channel)) / torch.sqrt(var.view(at_channel) + eps)
    if weight is not None:
        y = y * weight.view(at_channel) + bias.view(at_channel)
    return y, new_mean, new_var

# expect: your running_var moved towards the batch's biased variance (divided by n = 2)
# The mistake: the variance it normalized with kept in the running variance, divided by n.
import torch


def batch_norm(x, running_mean, running_var, weight, bias, training, momentum, eps):
    at_channel = (1, -1) + (1,) * (x.dim() - 2)
    if training:
        dims = [0, *range(2, x.dim())]
        mean, var = x.mean(dims), x.var(dims, correction=0)
        new_mean = (1 - momentum) * running_mean + momentum * mean.detach()
        new_var = (1 - momentum) * running_var + momentum * var.detach()
    else:
        mean, var = running_mean, running_var
        new_mean, new_var = running_mean.clone(), running_var.clone()
    y = (x - mean.view(at_channel)) / torch.sqrt(var.view(at_channel) + eps)
    if weight is not None:
        y = y * weight.view(at_channel) + bias.view(at_channel)
    return y, new_mean, new_var

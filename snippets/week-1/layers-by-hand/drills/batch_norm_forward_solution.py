import torch
from torchguide.drills import check_here


def batch_norm(
    x, running_mean, running_var, weight, bias, training, momentum, eps
):
    """nn.BatchNorm: batch statistics in training, running ones in eval."""
    at_channel = (1, -1) + (1,) * (x.dim() - 2)
    if training:
        dims = [0, *range(2, x.dim())]  # every dimension but the channels
        n = x.numel() // x.shape[1]
        mean = x.mean(dims)
        var = x.var(dims, correction=0)  # normalize with the biased variance
        with torch.no_grad():
            new_mean = (1 - momentum) * running_mean + momentum * mean
            unbiased = var * n / (n - 1)  # but keep the unbiased one
            new_var = (1 - momentum) * running_var + momentum * unbiased
    else:
        mean, var = running_mean, running_var
        new_mean, new_var = running_mean.clone(), running_var.clone()
    y = (x - mean.view(at_channel)) / torch.sqrt(var.view(at_channel) + eps)
    if weight is not None:
        y = y * weight.view(at_channel) + bias.view(at_channel)
    return y, new_mean, new_var


check_here("batch_norm_forward", batch_norm)

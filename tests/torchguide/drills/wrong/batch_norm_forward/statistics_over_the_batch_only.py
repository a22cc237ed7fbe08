# expect: (torch.float32, seed 3, a batch of one, 12 values a channel) your y differs at 24 of 24
# The mistake: statistics over dimension 0 alone, as for (N, C); an image has H and W too.
import torch


def batch_norm(x, running_mean, running_var, weight, bias, training, momentum, eps):
    if not training:
        at_channel = (1, -1) + (1,) * (x.dim() - 2)
        y = (x - running_mean.view(at_channel)) / torch.sqrt(running_var.view(at_channel) + eps)
        if weight is not None:
            y = y * weight.view(at_channel) + bias.view(at_channel)
        return y, running_mean.clone(), running_var.clone()
    mean, var = x.mean(0, keepdim=True), x.var(0, keepdim=True, correction=0)
    y = (x - mean) / torch.sqrt(var + eps)
    flat = x.detach().flatten(2).mean(2) if x.dim() > 2 else x.detach()
    new_mean = (1 - momentum) * running_mean + momentum * flat.mean(0)
    new_var = (1 - momentum) * running_var + momentum * flat.var(0) if len(x) > 1 else running_var
    if weight is not None:
        shape = (1, -1) + (1,) * (x.dim() - 2)
        y = y * weight.view(shape) + bias.view(shape)
    return y, new_mean, new_var

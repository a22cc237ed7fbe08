# expect: (2 padding), lr 0.1 (torch.float32, seed 2) your fsdp_step raised RuntimeError
# The mistake: the gathered parameter viewed as the weight with its padding still on.
import torch
import torch.nn.functional as F


def fsdp_step(shards, inputs, targets, out_features, lr):
    flat = torch.cat(shards)
    weight = flat.view(out_features, -1).detach().requires_grad_()
    summed = torch.zeros_like(flat)
    for x, y in zip(inputs, targets, strict=True):
        (grad,) = torch.autograd.grad(F.mse_loss(x @ weight.T, y), weight)
        summed += grad.flatten()
    grads = (summed / len(shards)).split(shards[0].numel())
    return [s - lr * g for s, g in zip(shards, grads, strict=True)]

# expect: for 2 ranks with batches of [2, 2], a weight (2, 3) in shards of 3 (0 padding), lr 0.1 (torch.float32, seed 0) your shard on rank 0 is
# The mistake: the reduce-scatter's sum kept, where DDP averages over ranks.
import torch
import torch.nn.functional as F


def fsdp_step(shards, inputs, targets, out_features, lr):
    flat = torch.cat(shards)
    numel = out_features * inputs[0].shape[-1]
    weight = flat[:numel].view(out_features, -1).detach().requires_grad_()
    summed = torch.zeros_like(flat)
    for x, y in zip(inputs, targets, strict=True):
        (grad,) = torch.autograd.grad(F.mse_loss(x @ weight.T, y), weight)
        summed[:numel] += grad.flatten()
    return [s - lr * g for s, g in zip(shards, summed.split(shards[0].numel()), strict=True)]

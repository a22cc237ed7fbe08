# expect: for 2 ranks with batches of [1, 3], a weight (2, 2) in shards of 2 (0 padding), lr 0.5 (torch.float32, seed 1) your shard on rank 0 is
# The mistake: one forward over the ranks' batches joined: right only when the sizes are equal.
import torch
import torch.nn.functional as F


def fsdp_step(shards, inputs, targets, out_features, lr):
    flat = torch.cat(shards)
    numel = out_features * inputs[0].shape[-1]
    weight = flat[:numel].view(out_features, -1).detach().requires_grad_()
    loss = F.mse_loss(torch.cat(inputs) @ weight.T, torch.cat(targets))
    (grad,) = torch.autograd.grad(loss, weight)
    padded = torch.cat([grad.flatten(), grad.new_zeros(flat.numel() - numel)])
    return [s - lr * g for s, g in zip(shards, padded.split(shards[0].numel()), strict=True)]

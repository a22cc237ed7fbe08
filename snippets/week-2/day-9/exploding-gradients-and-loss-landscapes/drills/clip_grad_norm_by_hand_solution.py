import torch
from torchguide.drills import check_here


def clip_grad_norm(parameters, max_norm):
    # a list: a generator would be empty on the second pass
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    # the norm of all gradients as one vector: the norm of the norms
    norms = torch.stack([torch.linalg.vector_norm(g) for g in grads])
    total_norm = torch.linalg.vector_norm(norms)
    # one factor for every gradient, capped at 1: never scale up
    factor = torch.clamp(max_norm / (total_norm + 1e-6), max=1.0)
    for grad in grads:
        grad.mul_(factor)  # in place: the optimizer reads p.grad
    return total_norm


check_here("clip_grad_norm_by_hand", clip_grad_norm)

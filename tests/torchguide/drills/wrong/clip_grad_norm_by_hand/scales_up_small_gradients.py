# expect: total norm 0.2651 and max_norm=1.0 your gradients were scaled by [3.7716, 3.7716]; the total norm is within max_norm
# The mistake: normalizing to max_norm instead of capping at it; small gradients are blown up.
import torch


def clip_grad_norm(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total_norm = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    for grad in grads:
        grad.mul_(max_norm / (total_norm + 1e-6))
    return total_norm

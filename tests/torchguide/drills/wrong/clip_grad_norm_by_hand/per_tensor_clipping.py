# expect: for gradients of shapes [(3, 2), (4,)], total norm 7.954 and max_norm=1.0 your gradients were scaled by [0.1783, 0.1773], one factor per tensor
# The mistake: clipping each tensor by its own norm, which changes the direction of the update.
import torch


def clip_grad_norm(parameters, max_norm):
    norms = []
    for p in parameters:
        if p.grad is not None:
            norm = torch.linalg.vector_norm(p.grad)
            norms.append(norm)
            p.grad.mul_(torch.clamp(max_norm / (norm + 1e-6), max=1.0))
    return torch.linalg.vector_norm(torch.stack(norms)) if norms else torch.tensor(0.0)

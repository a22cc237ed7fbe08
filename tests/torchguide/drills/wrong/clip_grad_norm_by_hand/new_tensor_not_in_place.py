# expect: your clip_grad_norm put a new tensor in the .grad of parameter 0; scale each gradient in place, grad.mul_(factor), as the task says
# The mistake: p.grad = p.grad * factor, a new tensor in .grad, where the task says in place.
import torch


def clip_grad_norm(parameters, max_norm):
    parameters = [p for p in parameters if p.grad is not None]
    if not parameters:
        return torch.tensor(0.0)
    total_norm = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(p.grad) for p in parameters]))
    factor = torch.clamp(max_norm / (total_norm + 1e-6), max=1.0)
    for p in parameters:
        p.grad = p.grad * factor
    return total_norm

# expect: passed as a generator (model.parameters()), total norm 11.52 and max_norm=0.5 your gradients were not scaled
# The mistake: two passes over `parameters`; a generator is empty the second time.
import torch


def clip_grad_norm(parameters, max_norm):
    squares = sum((p.grad**2).sum() for p in parameters if p.grad is not None)
    total_norm = torch.sqrt(torch.as_tensor(squares, dtype=torch.float32))
    factor = min(1.0, max_norm / (float(total_norm) + 1e-6))
    for p in parameters:
        if p.grad is not None:
            p.grad.mul_(factor)
    return total_norm

# expect: (transposed, non-contiguous) your numerical_gradient raised RuntimeError
# The mistake: x.view(-1) to walk the elements, which a transposed x cannot give.
import torch


def numerical_gradient(f, x, eps=1e-4):
    flat = x.view(-1)
    gradient = torch.zeros_like(x).view(-1)
    for i in range(flat.numel()):
        original = flat[i].item()
        flat[i] = original + eps
        above = f(x).item()
        flat[i] = original - eps
        below = f(x).item()
        flat[i] = original
        gradient[i] = (above - below) / (2 * eps)
    return gradient.view(x.shape)

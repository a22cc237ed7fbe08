import itertools

import torch
from torchguide.drills import check_here


def numerical_gradient(f, x: torch.Tensor, eps: float = 1e-4):
    """The gradient of f at x by central differences."""
    gradient = torch.zeros_like(x)
    # indices, not x.view(-1): a transposed x has no flat view
    for index in itertools.product(*map(range, x.shape)):
        original = x[index].item()
        x[index] = original + eps
        above = f(x).item()
        x[index] = original - eps
        below = f(x).item()
        x[index] = original  # leave x as it was
        gradient[index] = (above - below) / (2 * eps)
    return gradient


check_here("finite_difference_gradient", numerical_gradient)

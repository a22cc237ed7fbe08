# expect: for f(x) = sum(x**3) at x of shape (3,) your numerical_gradient changed its argument x; leave it as it was
# The mistake: stepping x without putting each element back, so later elements see a moved x.
import itertools

import torch


def numerical_gradient(f, x, eps=1e-4):
    gradient = torch.zeros_like(x)
    for index in itertools.product(*map(range, x.shape)):
        original = x[index].item()
        x[index] = original + eps
        above = f(x).item()
        x[index] = original - eps
        below = f(x).item()
        gradient[index] = (above - below) / (2 * eps)
    return gradient

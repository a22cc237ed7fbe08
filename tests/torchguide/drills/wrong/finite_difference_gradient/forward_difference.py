# expect: for f(x) = sum(x**3) at x of shape (3,) your gradient is [12.0006, 2.9997, 27.0009]; expected [12.0, 3.0, 27.0]
# The mistake: a forward difference, whose error is of order eps, not eps**2.
import itertools

import torch


def numerical_gradient(f, x, eps=1e-4):
    gradient = torch.zeros_like(x)
    base = f(x).item()
    for index in itertools.product(*map(range, x.shape)):
        original = x[index].item()
        x[index] = original + eps
        gradient[index] = (f(x).item() - base) / eps
        x[index] = original
    return gradient

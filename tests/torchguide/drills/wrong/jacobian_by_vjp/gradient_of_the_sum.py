# expect: (torch.float32, seed 4, x requires grad) your jacobian is [[-6.516, 0.6702], [-6.516, 0.6702]
# The mistake: one backward with ones, the gradient of y.sum(), taken for every row.
import torch


def jacobian(f, x):
    x = x.detach().requires_grad_()
    y = f(x)
    (row,) = torch.autograd.grad(y, x, torch.ones_like(y))
    return row.expand(y.numel(), -1).clone()

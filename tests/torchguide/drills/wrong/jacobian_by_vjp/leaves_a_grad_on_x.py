# expect: your jacobian left requires_grad=True on its argument x; leave it as it was
# The mistake: x itself made to require grad, so its caller finds it changed.
import torch


def jacobian(f, x):
    x.requires_grad_()
    y = f(x)
    rows = []
    for i in range(y.numel()):
        one_hot = torch.zeros_like(y)
        one_hot[i] = 1.0
        rows.append(torch.autograd.grad(y, x, one_hot, retain_graph=True)[0])
    return torch.stack(rows)

# expect: your jacobian has shape (2, 4); expected (4, 2): row i is the gradient of output i
# The mistake: the gradients stacked as columns, (inputs, outputs).
import torch


def jacobian(f, x):
    x = x.detach().requires_grad_()
    y = f(x)
    rows = []
    for i in range(y.numel()):
        one_hot = torch.zeros_like(y)
        one_hot[i] = 1.0
        rows.append(torch.autograd.grad(y, x, one_hot, retain_graph=True)[0])
    return torch.stack(rows, dim=1)

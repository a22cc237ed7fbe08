# expect: (torch.float32, seed 4, x requires grad) your jacobian is [[-5.085, 0.2786], [-7.8107, 0.1466]
# The mistake: backward() adds into x.grad, never cleared between the rows.
import torch


def jacobian(f, x):
    x = x.detach().requires_grad_()
    y = f(x)
    rows = []
    for i in range(y.numel()):
        one_hot = torch.zeros_like(y)
        one_hot[i] = 1.0
        y.backward(one_hot, retain_graph=True)
        rows.append(x.grad.clone())
    return torch.stack(rows)

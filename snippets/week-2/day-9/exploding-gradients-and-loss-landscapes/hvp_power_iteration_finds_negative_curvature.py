# docexec: timeout=60
import math

import torch
from torch import nn
from torch.func import functional_call, grad, jvp

D, H, WEIGHT_DECAY = 30, 4, 0.05  # the same model and saddle point
x = torch.randn(256, D)
y = torch.tanh(x @ torch.randn(D) / math.sqrt(D)) + 0.1 * torch.randn(256)
model = nn.Sequential(nn.Linear(D, H), nn.Tanh(), nn.Linear(H, 1))
shapes = {name: p.shape for name, p in model.named_parameters()}
sizes = [math.prod(s) for s in shapes.values()]


def loss_of(flat: torch.Tensor) -> torch.Tensor:
    chunks = [c.view(s) for c, s in zip(flat.split(sizes), shapes.values(),
                                         strict=True)]
    pred = functional_call(model, dict(zip(shapes, chunks, strict=True)), x)
    mse = (pred.squeeze(-1) - y).pow(2).mean()
    return mse + WEIGHT_DECAY * flat.pow(2).sum()


point = torch.zeros(sum(sizes))
point[-1] = y.mean() / (1 + WEIGHT_DECAY)


# --8<-- [start:gist]
def hessian_times(v: torch.Tensor) -> torch.Tensor:
    """H @ v without forming H: the derivative of the gradient along v."""
    return jvp(grad(loss_of), (point,), (v,))[1]
# --8<-- [end:gist]


def top_eigenvalue(matvec, n: int, iterations: int = 60) -> float:
    v = torch.randn(n)
    for _ in range(iterations):
        v = matvec(v)
        v = v / v.norm()
    return float(v @ matvec(v))  # Rayleigh quotient


# --8<-- [start:gist]
n = point.numel()
largest = top_eigenvalue(hessian_times, n)
# shifted so that the most negative eigenvalue becomes the top one
smallest = largest - top_eigenvalue(lambda v: largest * v - hessian_times(v), n)
# --8<-- [end:gist]

# --8<-- [start:gist]
exact = torch.linalg.eigvalsh(torch.autograd.functional.hessian(loss_of, point))
assert abs(largest - exact[-1]) < 1e-3 and abs(smallest - exact[0]) < 1e-3
assert smallest < 0
# --8<-- [end:gist]
print(f"power iteration: smallest {smallest:.3f}, largest {largest:.3f}")
print(f"full Hessian:    smallest {exact[0]:.3f}, largest {exact[-1]:.3f}")

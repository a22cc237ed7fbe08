# docexec: timeout=60
import math

import matplotlib.pyplot as plt
import torch
from torch import nn
from torch.func import functional_call

SEED = torch.initial_seed()
D, H, WEIGHT_DECAY = 30, 4, 0.05
x = torch.randn(256, D)
y = torch.tanh(x @ torch.randn(D) / math.sqrt(D)) + 0.1 * torch.randn(256)
model = nn.Sequential(nn.Linear(D, H), nn.Tanh(), nn.Linear(H, 1))
shapes = {name: p.shape for name, p in model.named_parameters()}
sizes = [math.prod(s) for s in shapes.values()]


def loss_of(flat: torch.Tensor) -> torch.Tensor:
    """Mean squared error plus weight decay, as a function of all weights."""
    chunks = [c.view(s) for c, s in zip(flat.split(sizes), shapes.values(),
                                         strict=True)]
    pred = functional_call(model, dict(zip(shapes, chunks, strict=True)), x)
    mse = (pred.squeeze(-1) - y).pow(2).mean()
    return mse + WEIGHT_DECAY * flat.pow(2).sum()


# --8<-- [start:gist]
# All weights zero, the output bias at its best value: the gradient is 0.
point = torch.zeros(sum(sizes))
point[-1] = y.mean() / (1 + WEIGHT_DECAY)
grad = torch.func.grad(loss_of)(point)
assert grad.norm() < 1e-6
# --8<-- [end:gist]

# --8<-- [start:gist]
hessian = torch.autograd.functional.hessian(loss_of, point)
eigenvalues, eigenvectors = torch.linalg.eigh(hessian)
assert eigenvalues[0] < -0.5  # a direction that goes down: a saddle
# --8<-- [end:gist]
print(f"{point.numel()} weights, gradient norm {grad.norm():.0e}")
print(f"Hessian eigenvalues: {(eigenvalues < 0).sum()} negative,"
      f" smallest {eigenvalues[0]:.2f}, largest {eigenvalues[-1]:.2f}")

# The usual picture: the loss on a plane through two random directions.
torch.manual_seed(SEED + 1)
d1, d2 = torch.randn(2, point.numel())
d1, d2 = d1 / d1.norm(), d2 / d2.norm()
steps = torch.linspace(-1, 1, 21)  # t = 0 at index 10, t = 0.5 at 15
plane = torch.tensor([[loss_of(point + a * d1 + b * d2).item()
                       for a in steps] for b in steps])
# --8<-- [start:gist]
assert plane.argmin() == plane.numel() // 2  # lowest at the centre
# --8<-- [end:gist]
print(f"random plane: centre {plane[10, 10]:.4f} is the lowest of"
      f" {plane.numel()} points")

# --8<-- [start:gist]
down = eigenvectors[:, 0]
along_down = [loss_of(point + t * down).item() for t in steps]
assert along_down[15] < plane[10, 10]  # t = 0.5 on the eigenvector
# --8<-- [end:gist]
print(f"along the eigenvector of {eigenvalues[0]:.2f}: "
      f"{along_down[10]:.4f} at t=0, {along_down[15]:.4f} at t=0.5")

fig, (left, right) = plt.subplots(2, 1, figsize=(4.8, 5.4))
contour = left.contourf(steps, steps, plane, levels=20, cmap="viridis")
fig.colorbar(contour, ax=left)
left.plot(0, 0, "r+", markersize=10)
left.set(title="random 2-D slice", xlabel="direction 1", ylabel="direction 2")
right.plot(steps, [loss_of(point + t * d1).item() for t in steps],
           label="random direction 1")
right.plot(steps, [loss_of(point + t * d2).item() for t in steps],
           label="random direction 2")
right.plot(steps, along_down, label="lowest Hessian eigenvector")
right.set(title="1-D slices", xlabel="step t from the point", ylabel="loss")
right.legend(fontsize=10)
fig.suptitle("A saddle point that a random slice shows as a minimum",
             fontsize=10)
fig.tight_layout()

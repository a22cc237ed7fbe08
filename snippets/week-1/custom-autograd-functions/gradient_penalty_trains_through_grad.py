import torch
from torch import nn

critic = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))
points = torch.randn(32, 2, requires_grad=True)


def penalty(create_graph):
    score = critic(points).sum()
    (grad,) = torch.autograd.grad(score, points, create_graph=create_graph)
    return (grad.norm(dim=1) - 1).pow(2).mean()  # WGAN-GP's penalty


# --8<-- [start:gist]
gp = penalty(create_graph=True)
gp.backward()  # differentiates through the gradient into the weights
first = critic[0].weight.grad
assert first is not None and first.abs().sum() > 0
# --8<-- [end:gist]
print(f"penalty {gp.item():.3f}; first layer's weight gradient norm "
      f"{first.norm().item():.3f}")
# --8<-- [start:gist]
assert penalty(create_graph=False).grad_fn is None  # nothing to train
# --8<-- [end:gist]
print("without create_graph the penalty has no grad_fn:", True)

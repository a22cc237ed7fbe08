# docexec: timeout=60
import torch
from torch import nn
from torchguide.debug.hooks import ActivationMonitor

# the build's seed draws the data and weights (`docexec run --seed N`
# draws others): the claim holds for every draw, as `make seeds` checks
SEED = torch.initial_seed()
x = torch.randn(256, 8)
y = torch.sin(x @ torch.randn(8, 1))
activations = (nn.ReLU, nn.LeakyReLU)


def never_positive(model):
    """Units of the hidden layer that are not positive for any input."""
    with ActivationMonitor(model, activations) as monitor:
        nn.functional.mse_loss(model(x), y).backward()
    return monitor.stats["1"].dead


for activation in (nn.ReLU(), nn.LeakyReLU(0.1)):
    torch.manual_seed(SEED)  # the same initial weights for both
    model = nn.Sequential(nn.Linear(8, 32), activation, nn.Linear(32, 1))
    # --8<-- [start:gist]
    nn.init.constant_(model[0].bias, -2.0)  # a bad setup: most units off
    off = never_positive(model)  # its backward pass fills .grad
    grad_rows = model[0].weight.grad.norm(dim=1)  # one row per unit
    # --8<-- [end:gist]
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    for _ in range(60):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()
    off_after = never_positive(model)
    name = type(activation).__name__
    # --8<-- [start:gist]
    if name == "ReLU":
        # Dead units get exactly zero gradient: no step can revive them.
        assert torch.all(grad_rows[off] == 0)
        assert torch.all(off_after[off])
    else:
        # LeakyReLU passes 0.1 x the gradient: the same units recover
        # (31% to 70% of them over seeds 0 to 15).
        assert torch.all(grad_rows[off] > 0)
        assert (off & ~off_after).sum() > 0.2 * off.sum()
    # --8<-- [end:gist]
    print(f"{name:9}  off: {off.sum():2}/32 at start, {off_after.sum():2}/32 "
          f"after 60 steps; their weights' grad <= {grad_rows[off].max():.1e}")

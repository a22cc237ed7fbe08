# docexec: timeout=60
import matplotlib.pyplot as plt
import torch
from torch import nn
from torchguide.debug.hooks import ActivationMonitor

# the build's seed draws the data and weights (`docexec run --seed N`
# draws others): the claim holds for every draw, as `make seeds` checks
SEED = torch.initial_seed()
x = torch.randn(256, 8)
y = torch.sin(x @ torch.randn(8, 1))


def train(lr, steps=60):
    torch.manual_seed(SEED)  # the same initial weights for every lr
    model = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()
    with (ActivationMonitor(model, keep_outputs=True) as monitor,
          torch.no_grad()):
        model(x)
    return monitor.stats["1"]


# --8<-- [start:gist]
runs = {lr: train(lr) for lr in (0.05, 0.5)}
low, high = runs[0.05], runs[0.5]
# At lr=0.5 from 20 to 63 of the 64 units died over 16 random datasets.
assert low.dead_count == 0 and high.dead_count > 16
# A healthy ReLU layer is zero about half the time: a spike at 0 alone
# does not mean dead units; the per-unit count does.
assert 0.35 < low.zero_fraction < 0.65
# --8<-- [end:gist]
for lr, s in runs.items():
    print(f"SGD lr={lr:<4}  zeros {s.zero_fraction:6.1%}  "
          f"dead units {s.dead_count}/{s.dead.numel()}")

fig, (left, right) = plt.subplots(2, 1, figsize=(4.8, 5.4))
for lr, s in runs.items():
    left.hist(s.outputs[0].flatten(), bins=40, alpha=0.6, label=f"lr={lr}")
    right.plot(s.active_fraction.sort().values, ".", label=f"lr={lr}")
left.set(xlabel="activation value", ylabel="count", yscale="log",
         title="All values: a spike at 0 in both")
right.set(xlabel="hidden unit (sorted)", ylabel="share of inputs > 0",
          title="Per unit: dead units sit at exactly 0")
right.legend()
fig.suptitle("Dying ReLU after training at a high learning rate")
fig.tight_layout()

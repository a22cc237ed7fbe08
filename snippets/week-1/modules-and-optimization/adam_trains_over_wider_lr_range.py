import math

import matplotlib.pyplot as plt
import torch
from torch import nn

SEED = torch.initial_seed()
x = torch.randn(128, 8)
y = torch.tanh(x @ torch.randn(8, 1))  # a smooth target to regress


def new_net() -> nn.Sequential:
    torch.manual_seed(SEED + 1)  # every run starts from the same weights
    return nn.Sequential(nn.Linear(8, 256), nn.ReLU(), nn.Linear(256, 1))


def losses_of(nets: list[nn.Sequential]) -> torch.Tensor:
    """Each net's MSE, from one batched forward (faster than one per net)."""
    w1, b1, w2, b2 = (torch.stack(ps) for ps in
                      zip(*(net.parameters() for net in nets)))
    h = torch.relu(torch.baddbmm(b1[:, None], x.expand(len(nets), -1, -1),
                                 w1.mT))
    out = torch.baddbmm(b2[:, None], h, w2.mT)
    return ((out - y) ** 2).mean(dim=(1, 2))


# --8<-- [start:gist]
STEPS, TARGET = 100, 0.05  # budget, and the loss that counts as trained
lrs = [10 ** (k / 2) for k in range(-8, 0)]  # 1e-4 ... 10^-0.5
# --8<-- [end:gist]
optimizers = {
    "SGD": lambda ps, lr: torch.optim.SGD(ps, lr=lr),
    "SGD, momentum 0.9": lambda ps, lr: torch.optim.SGD(ps, lr=lr,
                                                        momentum=0.9),
    "Adam (default betas)": lambda ps, lr: torch.optim.Adam(ps, lr=lr),
}
runs = [(name, lr) for name in optimizers for lr in lrs]
nets = [new_net() for _ in runs]
opts = [optimizers[name](net.parameters(), lr)
        for (name, lr), net in zip(runs, nets)]

for _ in range(STEPS):
    for opt in opts:
        opt.zero_grad()
    losses_of(nets).sum().backward()  # independent nets: each its own grad
    for opt in opts:
        opt.step()

# --8<-- [start:gist]
final = dict(zip(runs, losses_of(nets).tolist()))
trained = {name: [lr for lr in lrs if final[name, lr] < TARGET]
           for name in optimizers}
momentum, adam = trained["SGD, momentum 0.9"], trained["Adam (default betas)"]
assert trained["SGD"] == []  # no learning rate reaches it in 100 steps
assert 1 <= len(momentum) <= 3  # at most a decade (2 rates in seeds 0-5)
assert len(adam) >= max(4, len(momentum) + 2)  # 1.5 decades or more
# --8<-- [end:gist]
assert min(adam) > 1e-3  # Adam's default rate is below its range here
for name, ok in trained.items():
    span = "none"
    if ok:
        decades = math.log10(max(ok) / min(ok))
        span = f"{min(ok):.0e} to {max(ok):.0e} ({decades:.1f} decades)"
    print(f"{name:21}: loss < {TARGET} in {STEPS} steps at lr {span}")

fig, ax = plt.subplots(figsize=(4.8, 3))
for name in optimizers:
    shown = [final[name, lr] for lr in lrs]
    line, = ax.plot(lrs, shown, marker="o", label=name)  # nan: no point
    diverged = [lr for lr, v in zip(lrs, shown) if not math.isfinite(v)]
    ax.plot(diverged, [1.0] * len(diverged), "x", color=line.get_color())
ax.axhline(TARGET, color="grey", linestyle="--",
           label=f"target {TARGET}  (x: diverged)")
ax.set(xscale="log", yscale="log", xlabel="learning rate",
       ylabel=f"loss after {STEPS} steps",
       title="Learning rates that train: Adam's range is the widest")
ax.legend(fontsize=10)
fig.tight_layout()

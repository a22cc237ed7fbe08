import matplotlib.pyplot as plt
import torch
from torch import nn

SEED = torch.initial_seed()
x = torch.randn(128, 2)
y = (x[:, :1] * x[:, 1:2] > 0).float()  # XOR-like: needs several units


def train(constant: bool) -> tuple[torch.Tensor, list[float]]:
    torch.manual_seed(SEED + 1)
    net = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
    # --8<-- [start:gist]
    if constant:
        for p in net.parameters():
            nn.init.constant_(p, 0.3)
    # --8<-- [end:gist]
    opt = torch.optim.SGD(net.parameters(), lr=0.5)
    history, losses = [], []
    for _ in range(100):
        history.append(net[0].weight[:, 0].detach().clone())
        opt.zero_grad()
        loss = nn.functional.binary_cross_entropy_with_logits(net(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return torch.stack(history), losses


# --8<-- [start:gist]
const_hist, const_loss = train(constant=True)
rand_hist, rand_loss = train(constant=False)

# constant init: all 4 hidden units get the same gradient forever
assert torch.equal(const_hist[-1], const_hist[-1][0].expand(4))
# random init: units start different and stay different
assert len(set(rand_hist[-1].tolist())) == 4
assert rand_loss[-1] < const_loss[-1]
# --8<-- [end:gist]
print("constant init, unit weights:",
      [round(v, 3) for v in const_hist[-1].tolist()])
print("random init,   unit weights:",
      [round(v, 3) for v in rand_hist[-1].tolist()])
print(f"final loss: constant {const_loss[-1]:.3f}, "
      f"random {rand_loss[-1]:.3f}")

fig, axes = plt.subplots(2, 1, figsize=(4.8, 4), sharey=True)
for ax, hist, title in [(axes[0], const_hist, "constant 0.3: 4 lines overlap"),
                        (axes[1], rand_hist, "default random init")]:
    for unit in range(4):
        ax.plot(hist[:, unit], label=f"unit {unit}")
    ax.set_title(title)
    ax.set_xlabel("step")
axes[0].set_ylabel("hidden weight from input 0")
axes[1].legend(fontsize=10)
fig.tight_layout()

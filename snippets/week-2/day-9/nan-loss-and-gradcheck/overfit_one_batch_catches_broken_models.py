# docexec: timeout=120
import math

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch import nn
from torchguide.debug.numerics import overfit_one_batch

SEED = torch.initial_seed()
batch = torch.randn(64, 20), torch.randint(0, 4, (64,))  # random labels


class Net(nn.Module):
    def __init__(self, bug: str = "") -> None:
        super().__init__()
        self.bug = bug
        self.body = nn.Sequential(nn.Linear(20, 64), nn.ReLU(),
                                  nn.Linear(64, 8), nn.ReLU())
        self.head = nn.Linear(8, 4)
        if bug == "frozen first layer":
            self.body[0].requires_grad_(False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        features = self.body(x)
        if self.bug == "detached body":
            features = features.detach()
        logits = self.head(features)
        if self.bug == "softmax before CE":
            return logits.softmax(dim=-1)  # cross_entropy does it again
        return logits


# --8<-- [start:gist]
results = {}
for bug in ["", "detached body", "frozen first layer", "softmax before CE"]:
    torch.manual_seed(SEED + 1)
    result = overfit_one_batch(Net(bug), batch, F.cross_entropy, steps=150,
                               target_ratio=0.05)
    results[bug or "healthy"] = result
    print(f"{bug or 'healthy':<19} {result.verdict}")
# --8<-- [end:gist]

# --8<-- [start:gist]
assert results["healthy"].passed
assert not results["detached body"].memorized
# --8<-- [end:gist]
assert results["detached body"].without_grad == [
    "body.0.weight", "body.0.bias", "body.2.weight", "body.2.bias"]
# The rest of the model still fits the batch, more slowly than the healthy
# one on the same draw; the curve may pass it, the parameter check never.
# Over seeds 0 to 100 the healthy end was at most 1.3 % of the start (seed
# 66; the 5 % target leaves a margin of 3.7), the frozen end 0.6 % to 6.0 %
# (seed 50; the 20 % bound below leaves 3.3) and at least twice the healthy.
frozen_losses = results["frozen first layer"].losses
assert frozen_losses[-1] < 0.2 * frozen_losses[0]
assert frozen_losses[-1] > results["healthy"].losses[-1]
# --8<-- [start:gist]
assert results["frozen first layer"].frozen == ["body.0.weight", "body.0.bias"]
assert not results["softmax before CE"].memorized
# --8<-- [end:gist]
# cross-entropy of probabilities in [0, 1], 4 classes: at best log(1 + 3/e)
floor = math.log(1 + 3 / math.e)
lowest = min(results["softmax before CE"].losses)
assert lowest > floor
print(f"softmax before CE: lowest loss {lowest:.3f},"
      f" floor log(1 + 3/e) = {floor:.3f}")

fig, ax = plt.subplots(figsize=(4.8, 3.2))
for name, result in results.items():
    ax.semilogy(result.losses, label=name)
ax.set(title="Overfitting one batch of 64: healthy vs broken models",
       xlabel="Adam step", ylabel="cross-entropy on the batch")
ax.legend(fontsize=10)
fig.tight_layout()

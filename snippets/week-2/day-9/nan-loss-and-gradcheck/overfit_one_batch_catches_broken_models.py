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
    result = overfit_one_batch(Net(bug), batch, F.cross_entropy, steps=150)
    results[bug or "healthy"] = result
    print(f"{bug or 'healthy':<19} {result.verdict}")
# --8<-- [end:gist]

# --8<-- [start:gist]
assert results["healthy"].passed
assert not results["detached body"].memorized
assert results["detached body"].without_grad == [
    "body.0.weight", "body.0.bias", "body.2.weight", "body.2.bias"]
# --8<-- [end:gist]
# the rest of the model still fits the batch: the loss falls by 98%, so
# the curve may pass it; the parameter check fails in every draw
frozen_losses = results["frozen first layer"].losses
assert frozen_losses[-1] < 0.02 * frozen_losses[0]
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

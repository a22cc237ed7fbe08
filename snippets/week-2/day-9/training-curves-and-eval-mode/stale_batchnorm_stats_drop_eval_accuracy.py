# docexec: timeout=60
import torch
from torch import nn

SEED = torch.initial_seed()


def sample(n):
    """Raw features (not standardised) and a non-linear two-class label."""
    x = torch.randn(n, 10)
    return x * 3 + 5, (x[:, 0] * x[:, 1] + x[:, 2] > 0).long()


x_train, y_train = sample(2048)
x_test, y_test = sample(1024)


def accuracy(model, x, y, batch=256):
    with torch.no_grad():
        hits = sum((model(xb).argmax(1) == yb).sum().item()
                   for xb, yb in zip(x.split(batch), y.split(batch)))
    return hits / len(y)


def train(model, steps, lr=0.05):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    model.train()
    for _ in range(steps):
        batch = torch.randint(0, len(x_train), (64,))
        loss = nn.functional.cross_entropy(model(x_train[batch]),
                                           y_train[batch])
        opt.zero_grad()
        loss.backward()
        opt.step()


def bn_model(momentum):
    torch.manual_seed(SEED + 1)
    return nn.Sequential(
        nn.Linear(10, 64), nn.BatchNorm1d(64, momentum=momentum), nn.ReLU(),
        nn.Linear(64, 64), nn.BatchNorm1d(64, momentum=momentum), nn.ReLU(),
        nn.Linear(64, 2))


# --8<-- [start:gist]
# momentum=0.01: how Keras' BatchNormalization(momentum=0.99) translates
model = bn_model(momentum=0.01)
train(model, 60)
model.eval()
eval_mode = accuracy(model, x_test, y_test)  # running statistics
# --8<-- [end:gist]

# The cause: after 60 steps the running mean has moved only 1 - 0.99**60
# = 45% of the way from its start (0) to the layer's real input mean.
bn = model[1]
with torch.no_grad():
    real_mean = model[0](x_train).mean(0)
gap = (bn.running_mean - real_mean).abs().mean() / real_mean.abs().mean()

model.train()  # after the eval-mode figures: this also updates the stats
train_mode = accuracy(model, x_test, y_test)  # batch statistics

# --8<-- [start:gist]
# Recompute the running statistics over the training data, change nothing
# else: torch.optim.swa_utils.update_bn does exactly that.
torch.optim.swa_utils.update_bn(x_train.split(256), model)
model.eval()
recalibrated = accuracy(model, x_test, y_test)
# --8<-- [end:gist]
new_gap = ((bn.running_mean - real_mean).abs().mean()
           / real_mean.abs().mean())

# --8<-- [start:gist]
assert eval_mode < train_mode - 0.1
assert recalibrated > train_mode - 0.02 and new_gap < 0.01 < 0.2 < gap
# --8<-- [end:gist]
print(f"test accuracy, train mode:           {train_mode:.3f}")
print(f"test accuracy, eval mode:            {eval_mode:.3f}"
      f"   running mean off by {gap:.0%}")
print(f"eval mode, statistics recomputed:    {recalibrated:.3f}"
      f"   running mean off by {new_gap:.1%}")

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


torch.manual_seed(SEED + 1)
model = nn.Sequential(
    nn.Linear(10, 64), nn.BatchNorm1d(64), nn.ReLU(),
    nn.Linear(64, 64), nn.BatchNorm1d(64), nn.ReLU(),
    nn.Linear(64, 2))
train(model, 80)

# --8<-- [start:gist]
# The inference pipeline standardises the features, which the training
# pipeline did not: the model gets (x - 5) / 3 instead of x.
inputs = {"same preprocessing": x_test,
          "standardised inputs": (x_test - 5) / 3}
model.eval()  # normalised by the statistics of the training data
eval_mode = {name: accuracy(model, x, y_test) for name, x in inputs.items()}
# --8<-- [end:gist]
# Train mode last: its forward passes also update the running statistics.
# --8<-- [start:gist]
model.train()  # each batch normalised by its own statistics
results = {name: (accuracy(model, x, y_test), eval_mode[name])
           for name, x in inputs.items()}
# --8<-- [end:gist]

# Batch statistics absorb any per-feature scale and shift of the input to a
# Linear + BatchNorm pair, so train mode does not see the bug at all.
# --8<-- [start:gist]
(same_train, same_eval), (shift_train, shift_eval) = results.values()
assert abs(shift_train - same_train) < 0.005
assert shift_eval < same_eval - 0.1
# --8<-- [end:gist]
print("                     train mode  eval mode")
for name, (train_mode, eval_mode) in results.items():
    print(f"{name:20} {train_mode:10.3f} {eval_mode:10.3f}")

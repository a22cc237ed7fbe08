# docexec: timeout=60
import torch
from torch import nn


def sample(n):
    """Raw features (not standardised) and a non-linear two-class label."""
    x = torch.randn(n, 10)
    return x * 3 + 5, (x[:, 0] * x[:, 1] + x[:, 2] > 0).long()


SEED = torch.initial_seed()  # the same data in every run
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
# --8<-- [start:gist]
model = nn.Sequential(
    nn.Linear(10, 64), nn.Dropout(0.5), nn.BatchNorm1d(64), nn.ReLU(),
    nn.Linear(64, 64), nn.Dropout(0.5), nn.BatchNorm1d(64), nn.ReLU(),
    nn.Linear(64, 2))
train(model, 100)
model.eval()
eval_mode = accuracy(model, x_test, y_test)
# --8<-- [end:gist]

# The cause: BatchNorm's running variance was collected with dropout on,
# which scales kept values by 2 and so inflates the variance. In eval mode
# dropout is off and the same inputs vary less.
bn = model[2]
with torch.no_grad():
    var_dropout_off = model[0](x_train).var(0)
inflation = (bn.running_var / var_dropout_off).median().item()

model.train()  # after the eval-mode figures: this also updates the stats
train_mode = accuracy(model, x_test, y_test)


def recompute_stats_with_dropout_off(model):
    model.eval()  # dropout off; then BatchNorm alone back to training mode
    for m in model.modules():
        if isinstance(m, nn.BatchNorm1d):
            m.reset_running_stats()
            m.momentum = None  # a plain average over all batches
            m.train()
    with torch.no_grad():
        for batch in x_train.split(256):
            model(batch)
    model.eval()


# --8<-- [start:gist]
recompute_stats_with_dropout_off(model)
recalibrated = accuracy(model, x_test, y_test)
# --8<-- [end:gist]

assert inflation > 1.5
# --8<-- [start:gist]
assert recalibrated > eval_mode  # the same weights, only the statistics
# --8<-- [end:gist]
print(f"test accuracy, train mode:                {train_mode:.3f}")
print(f"test accuracy, eval mode:                 {eval_mode:.3f}")
print(f"running var / variance with dropout off:  {inflation:.2f}")
print(f"eval mode, statistics without dropout:    {recalibrated:.3f}")

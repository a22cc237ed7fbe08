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
# --8<-- [start:gist]
model = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Dropout(0.5),
                      nn.Linear(64, 64), nn.ReLU(), nn.Dropout(0.5),
                      nn.Linear(64, 2))
# --8<-- [end:gist]
train(model, 80)

# --8<-- [start:gist]
model.train()
dropout_on = accuracy(model, x_test, y_test)
model.eval()
dropout_off = accuracy(model, x_test, y_test)
# --8<-- [end:gist]
# In eval mode Dropout is the identity: outputs equal the model without it.
# --8<-- [start:gist]
no_dropout = nn.Sequential(*[m for m in model if not isinstance(m, nn.Dropout)])
assert torch.equal(model(x_test), no_dropout(x_test))
# --8<-- [end:gist]
# by 10 test samples or more (2 to 7 points over seeds 0 to 6: the data is
# the build's draw, `docexec run --seed N` draws others)
# --8<-- [start:gist]
assert dropout_off > dropout_on + 0.01
# --8<-- [end:gist]
print(f"test accuracy, train mode (dropout on): {dropout_on:.3f}")
print(f"test accuracy, after model.eval():      {dropout_off:.3f}")

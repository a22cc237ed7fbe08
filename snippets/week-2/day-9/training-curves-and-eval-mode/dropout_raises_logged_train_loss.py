# docexec: timeout=60
import torch
from torch import nn
from torch.nn.functional import cross_entropy

SEED = torch.initial_seed()  # the same teacher and data in every run
teacher = nn.Sequential(nn.Linear(20, 32), nn.Tanh(), nn.Linear(32, 3))


def sample(n):
    """Inputs and noisy labels from one fixed teacher network."""
    x = torch.randn(n, 20)
    with torch.no_grad():
        return x, (teacher(x) + 0.1 * torch.randn(n, 3)).argmax(1)


x_train, y_train = sample(16384)
x_val, y_val = sample(2048)
torch.manual_seed(SEED + 1)
model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Dropout(0.5),
                      nn.Linear(32, 3))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for _ in range(200):
    batch = torch.randint(0, 16384, (128,))
    opt.zero_grad()
    cross_entropy(model(x_train[batch]), y_train[batch]).backward()
    opt.step()

# --8<-- [start:gist]
with torch.no_grad():
    model.train()  # dropout on, as while the training loss is logged
    train_dropout_on = sum(cross_entropy(model(x_train), y_train).item()
                           for _ in range(5)) / 5
    model.eval()  # dropout off, as for validation
    train_dropout_off = cross_entropy(model(x_train), y_train).item()
    val = cross_entropy(model(x_val), y_val).item()

assert train_dropout_on > val and train_dropout_on > train_dropout_off
# measured alike, train and val nearly agree: the gap was dropout's
assert abs(train_dropout_off - val) < train_dropout_on - val
# --8<-- [end:gist]
print(f"train loss, dropout on (as logged): {train_dropout_on:.3f}")
print(f"val loss,   dropout off:            {val:.3f}")
print(f"train loss, dropout off:            {train_dropout_off:.3f}")

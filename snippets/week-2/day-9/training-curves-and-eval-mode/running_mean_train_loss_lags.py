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
x_val, y_val = sample(16384)  # large: its own sampling noise stays small
torch.manual_seed(SEED + 1)
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def train_loss_now():
    with torch.no_grad():
        return cross_entropy(model(x_train), y_train).item()


print("epoch  logged train  train at end  val at end  logged = model at")
for epoch in range(2):
    # --8<-- [start:gist]
    batch_losses, curve = [], [train_loss_now()]
    for batch in torch.randperm(16384).split(128):  # 128 batches
        opt.zero_grad()
        loss = cross_entropy(model(x_train[batch]), y_train[batch])
        loss.backward()
        opt.step()
        batch_losses.append(loss.item())
        curve.append(train_loss_now())
    logged = sum(batch_losses) / len(batch_losses)  # the usual running mean
    # --8<-- [end:gist]
    with torch.no_grad():
        val = cross_entropy(model(x_val), y_val).item()
    # when during the epoch did the model have the loss that was logged?
    # --8<-- [start:gist]
    when = next(i for i, c in enumerate(curve) if c <= logged) / 128
    assert logged > curve[-1]  # the same data, measured at the epoch's end
    assert 0.2 <= when <= 0.6
    # --8<-- [end:gist]
    if epoch == 0:  # the lag is largest while the loss falls fastest
        assert logged > val
    # Over seeds 0 to 40: logged above the epoch's end by 0.12 or more in
    # epoch 0 and 0.014 or more in epoch 1, where validation (within 0.02
    # of the training loss at the end) can be above it; `when` 30 % to 45 %.
    print(f"{epoch:5}  {logged:12.3f}  {curve[-1]:12.3f}  {val:10.3f}"
          f"  {when:.0%} into the epoch")

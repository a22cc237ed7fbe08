import torch
from torch import nn

SEED = torch.initial_seed()
x = torch.randn(128, 8)
y = torch.tanh(x @ torch.randn(8, 1))


def new_net() -> nn.Sequential:
    torch.manual_seed(SEED + 1)  # every run starts from the same weights
    return nn.Sequential(nn.Linear(8, 256), nn.ReLU(), nn.Linear(256, 1))


def train(optimizer, lr: float, reduction: str) -> float:
    net = new_net()
    opt = optimizer(net.parameters(), lr=lr)
    for _ in range(30):
        opt.zero_grad()
        # --8<-- [start:gist]
        # "sum" instead of "mean" makes every gradient 128x larger
        nn.functional.mse_loss(net(x), y, reduction=reduction).backward()
        # --8<-- [end:gist]
        opt.step()
    return nn.functional.mse_loss(net(x), y).item()


# --8<-- [start:gist]
adam = {r: train(torch.optim.Adam, 1e-2, r) for r in ("mean", "sum")}
sgd = {r: train(torch.optim.SGD, 1e-1, r) for r in ("mean", "sum")}

# Adam divides the step by the gradient's running RMS: same trajectory
assert abs(adam["sum"] - adam["mean"]) < 1e-4 * adam["mean"]
# SGD's step is lr * gradient: 128x larger steps and it diverges
start = nn.functional.mse_loss(new_net()(x), y).item()
assert sgd["mean"] < start and not sgd["sum"] < start  # nan: not below
# --8<-- [end:gist]
print(f"loss at the start: {start:.4f}")
for name, res in (("Adam, lr 1e-2", adam), ("SGD,  lr 1e-1", sgd)):
    print(f"{name}: loss after 30 steps with reduction='mean' "
          f"{res['mean']:.4f}, with 'sum' {res['sum']:.4g}")

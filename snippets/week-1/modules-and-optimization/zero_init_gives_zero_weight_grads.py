import torch
from torch import nn

x = torch.randn(64, 3)
y = (x[:, :1] * x[:, 1:2]).sign()  # a target that needs hidden units

net = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
# --8<-- [start:gist]
for p in net.parameters():
    nn.init.zeros_(p)
# --8<-- [end:gist]
opt = torch.optim.SGD(net.parameters(), lr=0.5)

for step in range(200):
    opt.zero_grad()
    nn.functional.mse_loss(net(x), y).backward()
    if step == 0:
        norms = {n: p.grad.norm().item() for n, p in net.named_parameters()}
    opt.step()

# --8<-- [start:gist]
# hidden output is ReLU(0) = 0, so every WEIGHT gets a zero gradient;
# only the output bias learns (it fits the mean of y)
assert norms["0.weight"] == norms["0.bias"] == norms["2.weight"] == 0
assert norms["2.bias"] > 0
print("grad norms at step 0:", {n: round(v, 3) for n, v in norms.items()})
assert torch.count_nonzero(net[0].weight) == 0
assert torch.count_nonzero(net[2].weight) == 0
print("nonzero hidden weights after 200 steps:",
      torch.count_nonzero(net[0].weight).item())
assert abs(net[2].bias.item() - y.mean().item()) < 1e-4  # predicts the mean
# --8<-- [end:gist]
print(f"output bias = {net[2].bias.item():.3f}, mean(y) = {y.mean():.3f}")

# PyTorch takes ReLU's derivative at exactly 0 to be 0
z = torch.zeros(1, requires_grad=True)
torch.relu(z).backward()
assert z.grad.item() == 0.0
print("d relu / dz at z = 0:", z.grad.item())

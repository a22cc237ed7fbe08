import matplotlib.pyplot as plt
import torch
from torch import nn

torch.set_num_threads(1)  # tiny ops: threads only add overhead
n, d = 2048, 32
x = torch.randn(n, d)
y = (x @ torch.randn(d) + 0.5 * torch.randn(n) > 0).long()
model = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 2))
loss_fn = nn.CrossEntropyLoss()


def gradient(index):
    model.zero_grad()
    loss_fn(model(x[index]), y[index]).backward()
    return torch.cat([p.grad.flatten() for p in model.parameters()])


# --8<-- [start:gist]
full = gradient(torch.arange(n))  # the gradient over the whole dataset
sizes = [1, 4, 16, 64, 256]
noise = []  # mean squared distance of a mini-batch gradient from it
for b in sizes:
    errors = [
        (gradient(torch.randint(0, n, (b,))) - full).pow(2).sum()
        for _ in range(40)
    ]
    noise.append(torch.stack(errors).mean().item())
# --8<-- [end:gist]

# variance of a mean of b independent samples: proportional to 1 / b
# --8<-- [start:gist]
scaled = [v * b for v, b in zip(noise, sizes)]
assert max(scaled) / min(scaled) < 1.6
assert noise[0] / noise[-1] > 150  # 256 x larger batch, ~256 x less noise
# --8<-- [end:gist]

fig, ax = plt.subplots(figsize=(4.8, 3.2))
ax.loglog(sizes, noise, "o-", label="measured")
ax.loglog(sizes, [noise[0] / b for b in sizes], "k--", label="noise(1) / b")
ax.set_xlabel("batch size b")
ax.set_ylabel(r"$E\,\|g_b - g\|^2$")
ax.set_title("Mini-batch gradient noise falls as 1 / batch size")
ax.legend()

for b, v in zip(sizes, noise):
    print(f"batch {b:3d}: noise {v:.4f}  noise x batch {v * b:.2f}")

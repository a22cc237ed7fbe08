# docexec: timeout=60
import math

import matplotlib.pyplot as plt
import torch
from torch import nn
from torchguide.debug.hooks import GradientMonitor

WIDTH, DEPTH = 64, 30


def plain_mlp(activation: type[nn.Module], std: float | None) -> nn.Sequential:
    """DEPTH x (Linear, activation), a Linear head; std=None: default init."""
    layers = []
    for _ in range(DEPTH):
        linear = nn.Linear(WIDTH, WIDTH)
        if std is not None:
            nn.init.normal_(linear.weight, std=std / math.sqrt(WIDTH))
        layers += [linear, activation()]
    return nn.Sequential(*layers, nn.Linear(WIDTH, 1))


setups = {
    "sigmoid, default init": (nn.Sigmoid, None),
    "tanh, std 3/sqrt(n)": (nn.Tanh, 3.0),
    "ReLU, default init": (nn.ReLU, None),
    "ReLU, std 2/sqrt(n)": (nn.ReLU, 2.0),
    "ReLU, Kaiming std sqrt(2/n)": (nn.ReLU, math.sqrt(2)),
}
SEED = torch.initial_seed()
x, y = torch.randn(128, WIDTH), torch.randn(128, 1)
weight_grads, signal_grads = {}, {}
for name, (activation, std) in setups.items():
    torch.manual_seed(SEED + 1)
    # --8<-- [start:gist]
    model = plain_mlp(activation, std)
    with GradientMonitor(model) as monitor:  # norms computed in float64
        nn.functional.mse_loss(model(x), y).backward()
    # --8<-- [end:gist]
    hidden = [monitor.stats[str(2 * i)] for i in range(DEPTH)]
    weight_grads[name] = [s.param_grad_norms["weight"][0] for s in hidden]
    signal_grads[name] = [s.output_grad_norms[0] for s in hidden]

print(f"{'':28} {'dL/dW: layer 1':>14} {'layer 30':>9}"
      f" {'dL/dz: 1 / 30':>14}")
for name in setups:
    w, z = weight_grads[name], signal_grads[name]
    print(f"{name:28} {w[0]:14.2g} {w[-1]:9.2g} {z[0] / z[-1]:14.2g}")

# --8<-- [start:gist]
# vanishing and exploding: geometric in depth, whatever the absolute size
assert signal_grads["sigmoid, default init"][0] < 1e-20
assert weight_grads["tanh, std 3/sqrt(n)"][0] > 1e3 * weight_grads[
    "tanh, std 3/sqrt(n)"][-1]
# --8<-- [end:gist]
relu_small, relu_big = signal_grads["ReLU, default init"], signal_grads[
    "ReLU, std 2/sqrt(n)"]
assert relu_small[0] < 1e-9 * relu_small[-1]
assert relu_big[0] > 1e3 * relu_big[-1]
# --8<-- [start:gist]
# healthy: every gradient below 1, the same size at every depth
kaiming = signal_grads["ReLU, Kaiming std sqrt(2/n)"]
assert max(kaiming) < 1 and 0.2 < kaiming[0] / kaiming[-1] < 5
# --8<-- [end:gist]

fig, axes = plt.subplots(2, 1, figsize=(4.8, 5.4), sharex=True)
layers = range(1, DEPTH + 1)
for name in setups:
    axes[0].semilogy(layers, weight_grads[name], label=name)
    axes[1].semilogy(layers, signal_grads[name], label=name)
axes[0].set(title="weight gradient", xlabel="layer (1 = input side)",
            ylabel="norm")
axes[1].set(title="gradient at the layer's output", xlabel="layer")
axes[1].legend(fontsize=10)
fig.suptitle("Gradient norm per layer in a 30-layer MLP at initialization",
             fontsize=10)
fig.tight_layout()

import matplotlib.pyplot as plt
import torch
from torch import nn

WIDTH, DEPTH = 256, 12
SEED = torch.initial_seed()
x = torch.randn(512, WIDTH)


def variance_per_layer(init) -> list[float]:
    """Pre-activation variance after each Linear of a deep ReLU stack."""
    torch.manual_seed(SEED + 1)
    h, variances = x, []
    for _ in range(DEPTH):
        layer = nn.Linear(WIDTH, WIDTH, bias=False)  # weights only
        init(layer.weight)
        z = layer(h)
        variances.append(z.var().item())
        h = torch.relu(z)
    return variances


# --8<-- [start:gist]
with torch.no_grad():
    default = variance_per_layer(lambda w: None)  # nn.Linear's own init
    he = variance_per_layer(
        lambda w: nn.init.kaiming_normal_(w, nonlinearity="relu"))

# per layer, ReLU halves the second moment and the weights multiply it by
# fan_in * Var(w): 1/3 for the default (so 1/6 in all), 2 for He (so 1)
def mean_ratio(v: list[float]) -> float:  # geometric mean, layer to layer
    return (v[-1] / v[0]) ** (1 / (len(v) - 1))
# --8<-- [end:gist]


# --8<-- [start:gist]
assert 1 / 7 < mean_ratio(default) < 1 / 5
assert 0.9 < mean_ratio(he) < 1.1
# --8<-- [end:gist]
print(f"variance kept per layer: default {mean_ratio(default):.3f} "
      f"(1/6 = {1 / 6:.3f}), He {mean_ratio(he):.3f}")
# over 11 layers: (1/6)^11 is about 3e-9, while He's stays near its start
assert default[-1] < 1e-6 * default[0] and 1 / 3 < he[-1] / he[0] < 3
print(f"variance after layer 1 and {DEPTH}: default "
      f"{default[0]:.3f} -> {default[-1]:.1e}, He {he[0]:.3f} -> {he[-1]:.3f}")

fig, ax = plt.subplots(figsize=(4.8, 3))
layers = range(1, DEPTH + 1)
ax.plot(layers, [v**0.5 for v in default], marker="o",
        label="nn.Linear default: kaiming_uniform_(a=sqrt(5))")
ax.plot(layers, [v**0.5 for v in he], marker="o",
        label="He: kaiming_normal_(nonlinearity='relu')")
ax.set(yscale="log", xlabel="layer", ylabel="std of pre-activation",
       title="Default init shrinks ReLU activations; He init keeps them")
ax.legend(fontsize=10)
fig.tight_layout()

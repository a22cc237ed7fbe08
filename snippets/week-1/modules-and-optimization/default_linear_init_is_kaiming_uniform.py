import math

import torch
from torch import nn

fan_in = 100
torch.manual_seed(0)
layer = nn.Linear(fan_in, 50)

torch.manual_seed(0)  # replay the same random numbers by hand
w = torch.empty(50, fan_in)
nn.init.kaiming_uniform_(w, a=math.sqrt(5))
bound = 1 / math.sqrt(fan_in)
b = torch.empty(50).uniform_(-bound, bound)

assert torch.equal(layer.weight, w) and torch.equal(layer.bias, b)
print("weight == kaiming_uniform_(a=sqrt(5)):", torch.equal(layer.weight, w))
# with a = sqrt(5) the kaiming bound is exactly 1/sqrt(fan_in)
gain = math.sqrt(2 / (1 + 5))
assert math.isclose(gain * math.sqrt(3 / fan_in), bound)
assert layer.weight.abs().max() <= bound
print(f"bound 1/sqrt(fan_in) = {bound:.3f}, "
      f"max |w| = {layer.weight.abs().max():.3f}")


# Why scale to fan-in: through 30 ReLU layers the signal keeps its size,
# while a fixed std makes it vanish (too small) or explode (too large).
def std_after_30_layers(init) -> float:
    torch.manual_seed(0)
    h = torch.randn(512, 256)
    for _ in range(30):
        w = torch.empty(256, 256)
        init(w)
        h = torch.relu(h @ w.T)
    return h.std().item()


stds = {
    "kaiming_normal_": std_after_30_layers(
        lambda w: nn.init.kaiming_normal_(w, nonlinearity="relu")),
    "normal_(std=0.01)": std_after_30_layers(
        lambda w: nn.init.normal_(w, std=0.01)),
    "normal_(std=1)": std_after_30_layers(lambda w: nn.init.normal_(w)),
}
assert 0.1 < stds["kaiming_normal_"] < 10
assert stds["normal_(std=0.01)"] < 1e-20 and stds["normal_(std=1)"] > 1e20
for name, s in stds.items():
    print(f"activation std after 30 layers, {name:17}: {s:.1e}")

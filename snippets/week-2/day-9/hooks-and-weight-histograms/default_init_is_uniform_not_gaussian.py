import math

import torch
from torch import nn


def kurtosis(w):
    """3 for a Gaussian, 1.8 for a uniform distribution."""
    centred = w.flatten().double() - w.mean()
    return float(centred.pow(4).mean() / centred.pow(2).mean() ** 2)


layers = {"Linear(256, 128)": nn.Linear(256, 128),
          "Conv2d(16, 32, 3)": nn.Conv2d(16, 32, 3)}
# --8<-- [start:gist]
for name, layer in layers.items():
    w = layer.weight.detach()
    fan_in = w[0].numel()  # inputs feeding one output unit
    bound = 1 / math.sqrt(fan_in)
    # kaiming_uniform_(a=sqrt(5)) = Uniform(-1/sqrt(fan_in), 1/sqrt(fan_in))
    assert w.abs().max() <= bound
    assert abs(w.std() - bound / math.sqrt(3)) < 0.02 * bound
    assert abs(kurtosis(w) - 1.8) < 0.1
# --8<-- [end:gist]
    print(f"{name:18} |w| <= {bound:.4f} = 1/sqrt({fan_in}), "
          f"std {w.std():.4f}, kurtosis {kurtosis(w):.2f}")

# --8<-- [start:gist]
gaussian = nn.init.normal_(torch.empty(128, 256), std=0.036)
assert abs(kurtosis(gaussian) - 3) < 0.2
# --8<-- [end:gist]
print(f"{'normal_ for contrast':18} kurtosis {kurtosis(gaussian):.2f}")

import math

import torch
from torch import nn

fan_in = 256
# --8<-- [start:gist]
state = torch.get_rng_state()
layer = nn.Linear(fan_in, 512)

torch.set_rng_state(state)  # replay the same random numbers by hand
w = torch.empty(512, fan_in)
nn.init.kaiming_uniform_(w, a=math.sqrt(5))
bound = 1 / math.sqrt(fan_in)
b = torch.empty(512).uniform_(-bound, bound)
assert torch.equal(layer.weight, w) and torch.equal(layer.bias, b)
# --8<-- [end:gist]
print("weight == kaiming_uniform_(a=sqrt(5)):", torch.equal(layer.weight, w))
# with a = sqrt(5) the gain is sqrt(2 / (1 + 5)): the bound is 1/sqrt(fan_in)
gain = math.sqrt(2 / (1 + 5))
assert math.isclose(gain * math.sqrt(3 / fan_in), bound)
assert layer.weight.abs().max() <= bound
print(f"bound 1/sqrt(fan_in) = {bound:.4f}, "
      f"max |w| = {layer.weight.abs().max():.4f}")

# U(-c, c) has variance c^2 / 3: fan_in * Var(w) = 1/3, where He's
# init for ReLU (kaiming_normal_ or kaiming_uniform_ with a=0) has 2
he = nn.init.kaiming_normal_(torch.empty(512, fan_in), nonlinearity="relu")
# --8<-- [start:gist]
default_gain = fan_in * layer.weight.var().item()
he_gain = fan_in * he.var().item()
assert abs(default_gain - 1 / 3) < 0.01 and abs(he_gain - 2) < 0.03
# --8<-- [end:gist]
print(f"fan_in * Var(w): default {default_gain:.3f}, He {he_gain:.3f}, "
      f"ratio {he_gain / default_gain:.1f}")

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

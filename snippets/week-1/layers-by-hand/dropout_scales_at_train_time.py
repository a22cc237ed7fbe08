import torch
from torch import nn

p = 0.3
drop = nn.Dropout(p)
x = torch.rand(1000, 1000) + 0.5  # no zeros: a zero was dropped
# --8<-- [start:gist]
y = drop(x)  # training mode
kept = y != 0
assert torch.allclose(y[kept], x[kept] / (1 - p))  # scaled now
ratio = (y / x).mean().item()  # E[y] = x: ratio near 1
standard_error = (p / ((1 - p) * x.numel())) ** 0.5
assert abs(ratio - 1) < 7 * standard_error
drop.eval()
assert drop(x) is x  # eval: the identity, nothing to undo
# --8<-- [end:gist]
print(f"kept elements scaled by 1/(1-p) = {1 / (1 - p):.4f}")
print(f"mean of y/x over 1e6 elements within 7 standard errors of 1:"
      f" |{ratio:.4f} - 1| < {7 * standard_error:.4f}")
print("eval returns its input tensor itself:", drop(x) is x)

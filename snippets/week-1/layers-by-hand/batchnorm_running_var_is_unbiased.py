import torch
from torch import nn

norm = nn.BatchNorm1d(3, momentum=0.1)  # running mean 0, running var 1
x = torch.randn(8, 3) * 2 + 1
y = norm(x)  # training mode: this batch's statistics
n = x.shape[0]
# --8<-- [start:gist]
biased = x.var(dim=0, correction=0)  # what y was normalized with
unbiased = x.var(dim=0, correction=1)  # biased * n / (n - 1)
assert torch.allclose(y, (x - x.mean(0)) / (biased + norm.eps).sqrt(),
                      atol=1e-5)
assert torch.allclose(norm.running_var, 0.9 * 1 + 0.1 * unbiased)
assert torch.allclose(norm.running_mean, 0.1 * x.mean(0))
# --8<-- [end:gist]
norm.eval()  # now the running statistics, whatever the batch
one = x[:1]
expected = (one - norm.running_mean) / (norm.running_var + norm.eps).sqrt()
assert torch.allclose(norm(one), expected, atol=1e-6)
print("running_var            ", norm.running_var)
print("0.9 + 0.1 * unbiased   ", 0.9 + 0.1 * unbiased)
print("0.9 + 0.1 * biased     ", 0.9 + 0.1 * biased)
print("eval normalizes a batch of one by the running statistics: True")

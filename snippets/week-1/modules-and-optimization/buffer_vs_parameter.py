import torch
from torch import nn


class Normalizer(nn.Module):
    def __init__(self):
        super().__init__()
        # --8<-- [start:gist]
        self.scale = nn.Parameter(torch.ones(3))  # learnable
        self.mean = nn.Buffer(torch.zeros(3))  # state, saved
        self.cache = nn.Buffer(torch.zeros(3), persistent=False)  # not saved
        self.register_buffer("count", torch.tensor(0))  # older spelling
        # --8<-- [end:gist]

    def forward(self, x):
        return (x - self.mean) * self.scale


m = Normalizer()
params = [n for n, _ in m.named_parameters()]
buffers = [n for n, _ in m.named_buffers()]
# --8<-- [start:gist]
saved = list(m.state_dict())
assert params == ["scale"]
assert buffers == ["mean", "cache", "count"]
assert saved == ["scale", "mean", "count"]  # persistent=False is left out
assert type(m.mean) is torch.Tensor  # nn.Buffer is a marker, not a class
assert not m.mean.requires_grad
# --8<-- [end:gist]
print("parameters():", params)
print("buffers():   ", buffers)
print("state_dict():", saved)
print("type of a buffer:", type(m.mean).__name__)

# .to() converts parameters and buffers; integer buffers keep their dtype
m.to(torch.float64)
assert m.scale.dtype == m.mean.dtype == torch.float64
assert m.count.dtype == torch.int64
print("after .to(float64):", m.scale.dtype, m.mean.dtype, m.count.dtype)

# BatchNorm's running statistics are buffers, changed by forward, not by an
# optimizer.
bn = nn.BatchNorm1d(2)
print("BatchNorm buffers:", [n for n, _ in bn.named_buffers()])
bn(torch.tensor([[0.0, 10.0], [2.0, 30.0]]))
assert torch.allclose(bn.running_mean, torch.tensor([0.1, 2.0]))
print("running_mean after one training forward:", bn.running_mean)

# requires_grad=False is only the default for buffers, not a rule
m.register_buffer("odd", torch.ones(1, requires_grad=True))
assert m.odd.requires_grad and "odd" not in dict(m.named_parameters())
print("a buffer can require grad:", m.odd.requires_grad)

# ...and a frozen Parameter is still a parameter
m.frozen = nn.Parameter(torch.ones(1), requires_grad=False)
assert "frozen" in dict(m.named_parameters())
print("frozen parameter listed in parameters():",
      "frozen" in dict(m.named_parameters()))

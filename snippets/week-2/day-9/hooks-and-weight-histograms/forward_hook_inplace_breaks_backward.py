# docexec: raises=RuntimeError match="modified by an inplace operation"
import torch
from torch import nn

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))

# Scaling the ReLU output in place inside a forward hook: the forward pass
# works and the output is changed, but ReLU saved that tensor for backward.
model[1].register_forward_hook(lambda mod, args, out: out.mul_(2))
loss = model(torch.randn(8, 3)).sum()
print("forward pass ran; backward:")
loss.backward()

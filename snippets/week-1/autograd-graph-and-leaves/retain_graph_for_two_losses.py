import torch
from torch import nn

trunk = nn.Sequential(nn.Linear(4, 8), nn.Tanh())
head_a, head_b = nn.Linear(8, 1), nn.Linear(8, 1)
x = torch.randn(16, 4)
calls = []  # one entry each time a gradient reaches the trunk's output


def losses():
    features = trunk(x)
    features.register_hook(lambda grad: calls.append(1))
    return head_a(features).pow(2).mean(), head_b(features).abs().mean()


# --8<-- [start:gist]
loss_a, loss_b = losses()
loss_a.backward(retain_graph=True)  # keep the trunk's saved tensors
loss_b.backward()  # backward through the trunk a second time
separate = [p.grad.clone() for p in trunk.parameters()]
trunk_passes_separate = len(calls)
# --8<-- [end:gist]

trunk.zero_grad()
calls.clear()
# --8<-- [start:gist]
loss_a, loss_b = losses()
(loss_a + loss_b).backward()  # one pass, no graph kept
# --8<-- [end:gist]
summed = [p.grad for p in trunk.parameters()]

assert all(torch.allclose(s, t, atol=1e-6) for s, t in zip(separate, summed))
assert (trunk_passes_separate, len(calls)) == (2, 1)
print("same trunk gradients:", True)
print("backward passes through the trunk: retain_graph",
      trunk_passes_separate, "| summed loss", len(calls))

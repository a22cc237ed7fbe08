import torch
from torch import nn

encoder = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 8))
head = nn.Linear(8, 1)
x = torch.randn(2, 4)


def saved_by(fn):
    """How many tensors autograd saved for backward while fn ran."""
    saved = []
    with torch.autograd.graph.saved_tensors_hooks(
        lambda t: saved.append(1) or t, lambda t: t
    ):
        out = fn()
    return len(saved), out


# --8<-- [start:gist]
n_plain, _ = saved_by(lambda: encoder(x))
with torch.no_grad():
    n_no_grad, feats_ng = saved_by(lambda: encoder(x))
n_detach, feats_d = saved_by(lambda: encoder(x).detach())

# no_grad: no graph is recorded at all. detach: the graph is recorded during
# the forward pass, then cut off from the result (and freed).
assert n_plain == n_detach > 0 and n_no_grad == 0
print(f"tensors saved for backward: plain={n_plain}, "
      f"no_grad={n_no_grad}, detach={n_detach}")
# --8<-- [end:gist]

# Either way gradients stop at the cut: only the head gets .grad
# --8<-- [start:gist]
head(feats_d).sum().backward()
assert all(p.grad is None for p in encoder.parameters())
# --8<-- [end:gist]
assert head.weight.grad is not None
print("encoder got grads:",
      any(p.grad is not None for p in encoder.parameters()),
      "| head got grads:", head.weight.grad is not None)
print("results equal:", torch.equal(feats_ng, feats_d))

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

block = nn.Sequential(nn.Linear(32, 64), nn.Dropout(0.5), nn.Linear(64, 32))
x = torch.randn(16, 32, requires_grad=True)
rng = torch.get_rng_state()  # every run draws the same dropout mask first


def input_grad(run):
    torch.set_rng_state(rng)
    x.grad = None
    run(x).pow(2).sum().backward()
    return x.grad


# --8<-- [start:gist]
plain = input_grad(block)
replayed = input_grad(lambda t: checkpoint(block, t, use_reentrant=False))
redrawn = input_grad(lambda t: checkpoint(
    block, t, use_reentrant=False, preserve_rng_state=False))
assert torch.allclose(replayed, plain)  # the RNG state is stashed, replayed
assert not torch.allclose(redrawn, plain)  # a new mask: a wrong gradient
# --8<-- [end:gist]
print("checkpoint (preserve_rng_state=True, the default): same gradient")
print("preserve_rng_state=False: a different gradient, and no error")

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

SEED = torch.initial_seed()


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(64, 256), nn.GELU(), nn.Linear(256, 64)
        )
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        return self.net(x)


def run(use_checkpoint):
    torch.manual_seed(SEED)  # both runs build the same block
    block = Block()
    x = torch.randn(32, 64, requires_grad=True)
    saved = []
    with torch.autograd.graph.saved_tensors_hooks(
        lambda t: saved.append(t.shape) or t, lambda t: t
    ):
        # --8<-- [start:gist]
        if use_checkpoint:
            y = checkpoint(block, x, use_reentrant=False)
        else:
            y = block(x)
        # --8<-- [end:gist]
    calls_after_forward = block.calls
    y.pow(2).sum().backward()
    return calls_after_forward, block.calls, len(saved), x.grad


# --8<-- [start:gist]
plain = run(use_checkpoint=False)
ckpt = run(use_checkpoint=True)
assert plain[:2] == (1, 1)  # forward runs once
assert ckpt[:2] == (1, 2)  # ...and once more inside backward
assert ckpt[2] < plain[2]  # fewer tensors kept between forward and backward
assert torch.allclose(plain[3], ckpt[3])  # same gradients
# --8<-- [end:gist]
for name, r in [("plain     ", plain), ("checkpoint", ckpt)]:
    print(f"{name}: forward calls after forward={r[0]}, "
          f"after backward={r[1]}, tensors saved during forward={r[2]}")
print("same input gradient:", torch.allclose(plain[3], ckpt[3]))

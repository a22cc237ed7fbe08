import copy

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint_sequential
from torch.utils.flop_counter import FlopCounterMode

BLOCKS, WIDTH, BATCH = 8, 256, 64
forwards = []  # one entry per block forward, recomputations included


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(WIDTH, 4 * WIDTH), nn.GELU(),
                                 nn.Linear(4 * WIDTH, WIDTH))

    def forward(self, x):
        forwards.append(1)
        return x + self.net(x)


model = nn.Sequential(*[Block() for _ in range(BLOCKS)])
x = torch.randn(BATCH, WIDTH, requires_grad=True)

# --8<-- [start:gist]
strategies = {
    "no checkpointing": lambda m, t: m(t),
    "every block": lambda m, t: checkpoint_sequential(
        m, BLOCKS, t, use_reentrant=False),
    "2 segments of 4": lambda m, t: checkpoint_sequential(
        m, 2, t, use_reentrant=False),
}
# --8<-- [end:gist]


def measure(run):
    net, inputs, saved = copy.deepcopy(model), x.detach().clone(), []
    inputs.requires_grad_()
    forwards.clear()
    with FlopCounterMode(display=False) as flops:
        with torch.autograd.graph.saved_tensors_hooks(
            lambda t: saved.append(t.nbytes) or t, lambda t: t
        ):
            out = run(net, inputs)
        out.pow(2).mean().backward()
    return (sum(saved) / 2**20, len(forwards), flops.get_total_flops(),
            inputs.grad)


results = {name: measure(run) for name, run in strategies.items()}
plain_mib, plain_calls, plain_flops, plain_grad = results["no checkpointing"]
every_mib, every_calls, every_flops, _ = results["every block"]
halves_mib, halves_calls, _, _ = results["2 segments of 4"]
# --8<-- [start:gist]
# the last segment runs unchecked: its outputs are needed at once
assert (plain_calls, every_calls, halves_calls) == (8, 8 + 7, 8 + 4)
assert every_mib < plain_mib / 4 and halves_mib < plain_mib * 0.6
assert 1.1 < every_flops / plain_flops < 1.2  # see below the table
# --8<-- [end:gist]
assert all(torch.allclose(r[-1], plain_grad, atol=1e-6)
           for r in results.values())
print(f"{'':17} saved for backward  block forwards  FLOPs  same gradients")
for name, (mib, calls, flops, grad) in results.items():
    print(f"{name:17} {mib:8.2f} MiB {calls:14} {flops / plain_flops:8.2f}x "
          f"{torch.allclose(grad, plain_grad, atol=1e-6)}")

# The recomputation stops once it has recreated what backward needs: each
# block's last matmul is not run again. Without that early stop, a whole
# extra forward per block: a backward costs about two forwards, so 31/24.
with torch.utils.checkpoint.set_checkpoint_early_stop(False):
    full_flops = measure(strategies["every block"])[2]
assert abs(full_flops / plain_flops - 31 / 24) < 0.01
print(f"every block, without the early stop: {full_flops / plain_flops:.2f}x "
      "the FLOPs")

import copy

import torch
from torch import nn
from torch.profiler import profile
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
    net, inputs = copy.deepcopy(model), x.detach().clone()
    inputs.requires_grad_()
    forwards.clear()
    with FlopCounterMode(display=False) as flops:
        # what the forward allocated and did not free: the activations kept
        # for backward (and the output), whoever holds them; the weights
        # existed before, so a view of one saved for backward costs nothing
        with profile(profile_memory=True) as prof:
            out = run(net, inputs)
        held = sum(e.self_cpu_memory_usage for e in prof.key_averages())
        out.pow(2).mean().backward()
    return held / 2**20, len(forwards), flops.get_total_flops(), inputs.grad


# what one block keeps for backward: its two 4x-wide activations (Linear's
# output, which GELU saves, and GELU's, which the second Linear saves) and
# its output, the next block's input; a float32 is 4 bytes
input_mib = BATCH * WIDTH * 4 / 2**20
block_mib = 2 * 4 * input_mib + input_mib


def close(measured, expected):
    return abs(measured - expected) < 0.05 * expected


results = {name: measure(run) for name, run in strategies.items()}
plain_mib, plain_calls, plain_flops, plain_grad = results["no checkpointing"]
every_mib, every_calls, every_flops, _ = results["every block"]
halves_mib, halves_calls, _, _ = results["2 segments of 4"]
# --8<-- [start:gist]
# the last segment runs unchecked: its outputs are needed at once
assert (plain_calls, every_calls, halves_calls) == (8, 8 + 7, 8 + 4)
assert close(plain_mib, BLOCKS * block_mib)
assert close(every_mib, (BLOCKS - 1) * input_mib + block_mib)  # 7 inputs
assert 1.1 < every_flops / plain_flops < 1.2  # see below the table
# --8<-- [end:gist]
assert close(halves_mib, input_mib + 4 * block_mib)  # the unchecked half
assert all(torch.allclose(r[-1], plain_grad, atol=1e-6)
           for r in results.values())
print(f"{'':17} kept for backward  block forwards  FLOPs  same gradients")
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

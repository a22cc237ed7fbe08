# docexec: timeout=60
import torch
from torch import nn
from torch.utils.flop_counter import FlopCounterMode
from torchguide.timing import measure, speedup


def count_flops(fn):
    with FlopCounterMode(display=False) as counter:
        fn()
    return counter.get_total_flops()


def compare(heavy, light):
    flop_ratio = count_flops(heavy) / count_flops(light)
    return flop_ratio, speedup(measure(heavy), measure(light))


# 1. A depthwise 3x3 conv (groups=channels) vs a dense one
x = torch.randn(8, 128, 32, 32)
# --8<-- [start:gist]
dense = nn.Conv2d(128, 128, 3, padding=1, bias=False)
depthwise = nn.Conv2d(128, 128, 3, padding=1, groups=128, bias=False)
with torch.no_grad():
    flop_ratio, time_ratio = compare(lambda: dense(x), lambda: depthwise(x))
assert flop_ratio == 128 and time_ratio < flop_ratio / 4
# --8<-- [end:gist]
# the bound asserted, not this run's timing: the same in every build
print(f"depthwise conv vs dense conv: {flop_ratio:.0f}x fewer FLOPs, "
      f"less than {flop_ratio / 4:.0f}x faster")

# 2. Attention scores for 256 chosen keys per query (a gather) vs all 1024
q, keys = torch.randn(1024, 64), torch.randn(1024, 64)
chosen = torch.randint(0, 1024, (1024, 256))
# --8<-- [start:gist]
flop_ratio, time_ratio = compare(
    lambda: q @ keys.T, lambda: torch.einsum("nd,nkd->nk", q, keys[chosen]))
assert flop_ratio == 4 and time_ratio < 1  # fewer FLOPs, yet slower
# --8<-- [end:gist]
print(f"gathered keys vs dense matmul: {flop_ratio:.0f}x fewer FLOPs, "
      "yet slower")

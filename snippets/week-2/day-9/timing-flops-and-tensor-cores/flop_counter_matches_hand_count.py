# docexec: timeout=60
import torch
from torch import nn
from torch.utils.flop_counter import FlopCounterMode

N, C_IN, C_OUT, HW, K, CLASSES = 4, 3, 16, 8, 3, 10
model = nn.Sequential(
    nn.Conv2d(C_IN, C_OUT, K, padding=1), nn.ReLU(), nn.Flatten(),
    nn.Linear(C_OUT * HW * HW, CLASSES))
x = torch.randn(N, C_IN, HW, HW)

# --8<-- [start:gist]
with FlopCounterMode(display=False) as counter:  # display needs tabulate
    model(x)
per_op = {str(op): n for op, n in counter.get_flop_counts()["Global"].items()}

# by hand: a multiply-add is 2 FLOPs; a matmul (m x k) @ (k x n) has m*n*k
conv_macs = N * C_OUT * HW * HW * (C_IN * K * K)  # per output: C_in*k*k
linear_macs = N * (C_OUT * HW * HW) * CLASSES  # m=N, k=in, n=out
assert per_op == {"aten.convolution": 2 * conv_macs,
                  "aten.addmm": 2 * linear_macs}
assert counter.get_total_flops() == 2 * (conv_macs + linear_macs)
# --8<-- [end:gist]
# ReLU, the bias additions and Flatten are not counted at all
print("FlopCounterMode per op:", per_op)
print("by hand, 2 x multiply-adds:", {"conv": 2 * conv_macs,
                                       "linear": 2 * linear_macs})
print(f"total: {counter.get_total_flops():,} FLOPs"
      f" = {conv_macs + linear_macs:,} multiply-adds (MACs)")

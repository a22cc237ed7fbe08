# docexec: timeout=60
import torch
from torch import nn
from torch.utils.flop_counter import FlopCounterMode

model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
                      nn.Flatten(), nn.Linear(16 * 8 * 8, 10))
x = torch.randn(4, 3, 8, 8)


def flops(fn):
    with FlopCounterMode(display=False) as counter:
        fn()
    return {str(op): n for op, n in counter.get_flop_counts()["Global"].items()}


# --8<-- [start:gist]
fwd = flops(lambda: model(x))
train = flops(lambda: model(x).sum().backward())
backward = {op: n for op, n in train.items() if op not in fwd}

# Linear backward: grad wrt input and grad wrt weight, each as big as forward
assert backward["aten.mm"] == 2 * fwd["aten.addmm"]
# first conv: x needs no gradient, so only the weight gradient is computed
assert backward["aten.convolution_backward"] == fwd["aten.convolution"]
# --8<-- [end:gist]
print("forward: ", fwd)
print("backward:", backward)
# --8<-- [start:gist]
print(f"training step / forward: {sum(train.values()) / sum(fwd.values()):.2f}"
      " (not 3: the input needs no gradient)")
# --8<-- [end:gist]

# docexec: measured
import time

import torch
from torch import nn

model = nn.Sequential(*[nn.Linear(32, 32) for _ in range(8)])
batch = torch.randn(16, 32)


def step():
    loss = model(batch).sum()
    loss.backward()
    return loss


# --8<-- [start:gist]
with torch.autograd.detect_anomaly():  # or set_detect_anomaly(True)
    loss = step()
# every node of the graph keeps the Python stack of the op that made it
assert "traceback_" in loss.grad_fn.metadata
assert "traceback_" not in step().grad_fn.metadata  # not without it
# --8<-- [end:gist]
print("a node's recorded stack, last frame:")
print(" ", loss.grad_fn.metadata["traceback_"][-1].strip().splitlines()[0])


def seconds_for(steps, anomaly):
    with torch.autograd.set_detect_anomaly(anomaly):
        start = time.perf_counter()
        for _ in range(steps):
            step()
        return time.perf_counter() - start


# interleaved, best of five: a busy machine slows both alike
runs = [(seconds_for(20, False), seconds_for(20, True)) for _ in range(5)]
plain, checked = (min(times) for times in zip(*runs))
assert checked > plain  # loosely: more work per step, never less
print(f"20 training steps: {checked / plain:.1f}x the time with anomaly "
      "detection (this build's measurement)")

from unittest import mock

import torch
from torch.utils import benchmark

events = []  # the order in which the Timer synchronizes and runs the code
x = torch.randn(256, 256)


# --8<-- [start:gist]
def step():
    events.append("run")
    return x @ x
# --8<-- [end:gist]


# This machine has no GPU, so stand in for one: pretend an accelerator is
# present and record each synchronize() call instead of performing it.
with (
    mock.patch.object(torch.accelerator, "is_available", return_value=True),
    mock.patch.object(torch.accelerator, "synchronize",
                      side_effect=lambda *_: events.append("sync")),
):
    # --8<-- [start:gist]
    timer = benchmark.Timer("step()", globals={"step": step})
    timer.timeit(number=3)
    # --8<-- [end:gist]

# --8<-- [start:gist]
# timeit warms up with 2 runs, then times 3; every clock reading comes
# right after a synchronize, so queued GPU work is inside the timed span
assert events == ["sync", "run", "run", "sync",
                  "sync", "run", "run", "run", "sync"]
# --8<-- [end:gist]
print("accelerator really available here:", torch.accelerator.is_available())
print("warm-up:", " -> ".join(events[:4]))
print("timed:  ", " -> ".join(events[4:]))

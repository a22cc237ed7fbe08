# docexec: cuda
import time

import torch
from torchguide.timing import measure, speedup

pageable = torch.ones(64 * 2**20)  # 256 MiB of float32
# --8<-- [start:gist]
pinned = pageable.pin_memory()
# --8<-- [end:gist]
assert pinned.is_pinned() and not pageable.is_pinned()

# measure() synchronizes, so each time covers the whole copy even when
# non_blocking=True lets the call return before the copy has finished.
# --8<-- [start:gist]
t_pageable = measure(lambda: pageable.to("cuda"), min_run_time=1.0)
t_pinned = measure(lambda: pinned.to("cuda", non_blocking=True),
                   min_run_time=1.0)
ratio = speedup(t_pageable, t_pinned)
assert ratio > 1.0  # typically 1.5-3x
# --8<-- [end:gist]
# The speed is the pinned pages' (DMA straight from them), not the flag's:
# a blocking copy from pinned memory is as fast.
t_pinned_blocking = measure(lambda: pinned.to("cuda"), min_run_time=1.0)
ratio_blocking = speedup(t_pageable, t_pinned_blocking)
assert ratio_blocking > 1.0
print("pinned vs pageable host-to-device speed-up:", round(ratio, 1))
print("the same with non_blocking=False:", round(ratio_blocking, 1))


# Does the host wait? Keep the GPU busy, then time the call itself.
def call_seconds(src):
    src.to("cuda", non_blocking=True)  # warm-up: device memory is cached
    torch.cuda.synchronize()
    torch.cuda._sleep(2**30)  # queue a kernel that spins for ~0.5-1 s
    start = time.perf_counter()
    src.to("cuda", non_blocking=True)
    seconds = time.perf_counter() - start
    torch.cuda.synchronize()
    return seconds


# --8<-- [start:gist]
small = torch.ones(2**20)  # 4 MiB: the copy itself takes about 1 ms
waits = {"pinned": call_seconds(small.pin_memory()),
         "pageable": call_seconds(small)}
assert waits["pinned"] < 0.05  # queued behind the kernel: returns at once
assert waits["pageable"] > 0.2  # waits for the GPU before copying
# --8<-- [end:gist]
print("non_blocking=True, host waited for the busy GPU:",
      {k: s > 0.2 for k, s in waits.items()})

# non_blocking=True from pinned memory is asynchronous: synchronize (or use
# the result on the same stream) before reading it on the host.
y = pinned.to("cuda", non_blocking=True)
torch.cuda.synchronize()
assert torch.equal(y[:3].cpu(), torch.ones(3))

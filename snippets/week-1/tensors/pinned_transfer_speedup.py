# docexec: cuda
import torch
from torchguide.timing import measure, speedup

pageable = torch.ones(64 * 2**20)  # 256 MiB of float32
pinned = pageable.pin_memory()
assert pinned.is_pinned() and not pageable.is_pinned()

# measure() synchronizes, so each time covers the whole copy even when
# non_blocking=True lets the call return before the copy has finished.
t_pageable = measure(lambda: pageable.to("cuda"), min_run_time=1.0)
t_pinned = measure(lambda: pinned.to("cuda", non_blocking=True),
                   min_run_time=1.0)
ratio = speedup(t_pageable, t_pinned)
assert ratio > 1.0  # typically 1.5-3x; generous margin
print("pinned vs pageable host-to-device speed-up:", round(ratio, 1))

# non_blocking=True from pinned memory is asynchronous: synchronize (or use
# the result on the same stream) before reading it on the host.
y = pinned.to("cuda", non_blocking=True)
torch.cuda.synchronize()
assert torch.equal(y[:3].cpu(), torch.ones(3))
print("copy complete after synchronize:", torch.equal(y[:3].cpu(),
                                                       torch.ones(3)))

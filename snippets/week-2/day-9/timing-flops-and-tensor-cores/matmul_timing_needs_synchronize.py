# docexec: cuda
import math
import time

import torch

a = torch.randn(8192, 8192, device="cuda")
a @ a  # warm-up: the first call loads cuBLAS and picks a kernel
torch.cuda.synchronize()
stream = torch.cuda.current_stream()

# 1. Without synchronize the clock stops when the kernel is queued.
# --8<-- [start:gist]
start = time.perf_counter()
c = a @ a
returned = time.perf_counter() - start
still_running = not stream.query()  # query(): has the stream finished?
torch.cuda.synchronize()  # block the CPU until the GPU has finished
finished = time.perf_counter() - start
# --8<-- [end:gist]

# 2. time.sleep pauses only the CPU: the GPU finishes meanwhile, but the
# timer now measures the sleep, not the matmul.
start = time.perf_counter()
# --8<-- [start:gist]
c = a @ a
time.sleep(0.5)
done_after_sleep = stream.query()
# --8<-- [end:gist]
slept = time.perf_counter() - start

# 3. CUDA events are timestamps taken by the GPU itself, in stream order.
begin = torch.cuda.Event(enable_timing=True)
end = torch.cuda.Event(enable_timing=True)
begin.record()
c = a @ a
end.record()
end.synchronize()  # wait for this event only
kernel = begin.elapsed_time(end) / 1000  # milliseconds -> seconds

# --8<-- [start:gist]
assert still_running and finished > 10 * returned
assert done_after_sleep and slept >= 0.5 > kernel
assert 0.5 < kernel / finished < 2  # events agree with synchronize
# --8<-- [end:gist]
print("GPU:", torch.cuda.get_device_name())
print("kernel still running when a @ a returned:", still_running)
print("synchronized time / unsynchronized time: about",
      10 ** round(math.log10(finished / returned)), "x")
print("timed with sleep(0.5): the sleep, not the kernel:", slept >= 0.5)
print("CUDA events / synchronized wall time:", round(kernel / finished, 1))

# docexec: cuda
import torch

a = torch.randn(8192, 8192, device="cuda")
a @ a
torch.cuda.synchronize()

side = torch.cuda.Stream()
with torch.cuda.stream(side):  # queue work on a second stream
    for _ in range(4):
        c = a @ a

torch.cuda.current_stream().synchronize()  # waits for one stream only
side_busy_after_stream_sync = not side.query()
torch.cuda.synchronize()  # waits for every stream on the device
side_done_after_device_sync = side.query()

assert side_busy_after_stream_sync and side_done_after_device_sync
print("after current_stream().synchronize(), side stream still busy:",
      side_busy_after_stream_sync)
print("after torch.cuda.synchronize(), side stream finished:",
      side_done_after_device_sync)

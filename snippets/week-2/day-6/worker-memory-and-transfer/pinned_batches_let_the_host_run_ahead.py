# docexec: cuda
import time

import torch
from torch.utils.data import DataLoader, TensorDataset

data = TensorDataset(torch.rand(160, 3, 224, 224))  # 16 batches of 10


def gpu_work():
    torch.cuda._sleep(20_000_000)  # stands in for forward and backward


gpu_work()  # warm-up
start = torch.cuda.Event(enable_timing=True)
end = torch.cuda.Event(enable_timing=True)
start.record()
gpu_work()
end.record()
end.synchronize()
gpu_seconds = start.elapsed_time(end) / 1000


def seconds_per_epoch(pin_memory, non_blocking):
    loader = DataLoader(data, batch_size=10, pin_memory=pin_memory)
    checksum = torch.zeros((), device="cuda")
    torch.cuda.synchronize()
    begin = time.perf_counter()
    # --8<-- [start:gist]
    for (batch,) in loader:
        assert batch.is_pinned() == pin_memory
        # The GPU is still busy with the last step's work, queued below.
        x = batch.to("cuda", non_blocking=non_blocking)
        time.sleep(gpu_seconds)  # the host's part: overlaps the GPU or not
        checksum += x.sum()  # queued behind the copy on the same stream
        gpu_work()
    # --8<-- [end:gist]
    torch.cuda.synchronize()
    seconds = time.perf_counter() - begin
    # Every asynchronous copy arrived complete before it was used.
    assert torch.allclose(checksum.cpu(), data.tensors[0].sum(), rtol=1e-3)
    return seconds


seconds_per_epoch(True, True)  # warm-up: pinned buffers get cached
variants = {
    "pageable, non_blocking=False": seconds_per_epoch(False, False),
    "pinned, non_blocking=False": seconds_per_epoch(True, False),
    "pinned, non_blocking=True": seconds_per_epoch(True, True),
}
# --8<-- [start:gist]
overlapped = variants.pop("pinned, non_blocking=True")
for name, seconds in variants.items():
    ratio = seconds / overlapped
    # The copy waits for the GPU: host and GPU work add up (ideal: 2x).
    assert ratio > 1.3
# --8<-- [end:gist]
    print(f"{name}: epoch takes {ratio:.1f}x as long as with pinned, "
          "non_blocking=True")

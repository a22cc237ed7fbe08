# docexec: cuda timeout=60
import subprocess
import time

import torch


def utilization():
    """GPU utilization in percent, as nvidia-smi reports it."""
    query = ["nvidia-smi", "--query-gpu=utilization.gpu",
             "--format=csv,noheader,nounits"]
    out = subprocess.run(query, capture_output=True, text=True, check=True)
    return max(int(value) for value in out.stdout.split())


# torch.cuda._sleep (used by PyTorch's own tests) queues a kernel of ONE
# thread that spins for a number of clock cycles; calibrate it to seconds
begin = torch.cuda.Event(enable_timing=True)
end = torch.cuda.Event(enable_timing=True)
begin.record()
torch.cuda._sleep(100_000_000)
end.record()
end.synchronize()
cycles_per_second = 100_000_000 / (begin.elapsed_time(end) / 1000)

# --8<-- [start:gist]
torch.cuda._sleep(int(4 * cycles_per_second))  # about 4 s of one thread
time.sleep(1.5)  # nvidia-smi averages over its last sample (<= 1 s)
busy = utilization()
torch.cuda.synchronize()
time.sleep(1.5)
idle = utilization()

sms = torch.cuda.get_device_properties(0).multi_processor_count
assert busy >= 80 and idle < busy
# --8<-- [end:gist]
print("GPU:", torch.cuda.get_device_name())
print(f"1 thread on 1 of {sms} multiprocessors: utilization {busy} %")
print(f"nothing running: utilization {idle} %")

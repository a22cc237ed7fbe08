import os
import re

import torch
import torch.multiprocessing as mp
from torch.utils.data import DataLoader, TensorDataset


def shm_files_mapped():
    """/dev/shm files this process has mapped (ids in the name hidden)."""
    with open("/proc/self/maps") as f:
        names = {line.split(None, 5)[5].strip() for line in f
                 if "/dev/shm/torch_" in line}
    return sorted(re.sub(r"_\d+", "_<id>", name) for name in names)


print("sharing strategies:", sorted(mp.get_all_sharing_strategies()))
print("default:", mp.get_sharing_strategy())
assert mp.get_sharing_strategy() == "file_descriptor"  # Linux default

# --8<-- [start:gist]
images = TensorDataset(torch.rand(32, 3, 64, 64))
(in_main,) = next(iter(DataLoader(images, batch_size=16, num_workers=0)))
assert not in_main.is_shared()
print("num_workers=0: batch is_shared()", in_main.is_shared())
for strategy in ("file_descriptor", "file_system"):
    mp.set_sharing_strategy(strategy)
    loader = DataLoader(images, batch_size=16, num_workers=1)
    (from_worker,) = next(iter(loader))
    assert from_worker.is_shared()
    # Either way the batch's memory is a file in /dev/shm.
    (mapped,) = shm_files_mapped()
    assert mapped.startswith("/dev/shm/")
# --8<-- [end:gist]
    print(f"num_workers=1, {strategy}: batch is_shared()",
          from_worker.is_shared(), "->", mapped)
    del from_worker

# So /dev/shm must hold every batch in flight.
shm = os.statvfs("/dev/shm")
batch_bytes = in_main.nbytes
assert shm.f_frsize * shm.f_blocks > batch_bytes
print(f"one batch: {batch_bytes / 2**20:.2f} MiB of /dev/shm")

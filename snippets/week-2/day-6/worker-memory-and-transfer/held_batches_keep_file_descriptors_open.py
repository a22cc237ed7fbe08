import contextlib
import os

import torch
import torch.multiprocessing as mp
from torch.utils.data import DataLoader, TensorDataset


def open_shared_memory_files():
    """Descriptors of this process that point into /dev/shm (the loader's
    own pipes and files open and close on their own schedule)."""
    names = []
    for fd in os.listdir("/proc/self/fd"):
        # the descriptor listdir itself used is closed by now
        with contextlib.suppress(OSError):
            names.append(os.readlink(f"/proc/self/fd/{fd}"))
    return sum(name.startswith("/dev/shm/") for name in names)


# --8<-- [start:gist]
assert mp.get_sharing_strategy() == "file_descriptor"
loader = DataLoader(TensorDataset(torch.rand(64, 10)), batch_size=2,
                    num_workers=1)
kept = [batch for number, batch in enumerate(loader) if number < 20]
with_kept = open_shared_memory_files()
del kept
released = with_kept - open_shared_memory_files()
assert released == 20  # one open descriptor per shared storage
print(f"deleting 20 kept batches closed {released} file descriptors")
# --8<-- [end:gist]

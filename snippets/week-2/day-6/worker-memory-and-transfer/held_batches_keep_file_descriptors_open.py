import os

import torch
import torch.multiprocessing as mp
from torch.utils.data import DataLoader, TensorDataset


def open_files():
    return len(os.listdir("/proc/self/fd"))


assert mp.get_sharing_strategy() == "file_descriptor"
loader = DataLoader(TensorDataset(torch.rand(64, 10)), batch_size=2,
                    num_workers=1)
# Every batch is taken, so that none is still on its way when the files
# are counted; 20 of them are kept (e.g. outputs kept for later).
kept = [batch for number, batch in enumerate(loader) if number < 20]
with_kept = open_files()
del kept
released = with_kept - open_files()
assert released == 20  # one open descriptor per shared storage
print(f"deleting 20 kept batches closed {released} file descriptors")

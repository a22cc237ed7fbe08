# docexec: measured
import sys

import matplotlib.pyplot as plt
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

N, PARTS = 200_000, 8


def private_dirty_mib():
    """Memory this process has written to since the fork (its own copy)."""
    with open("/proc/self/smaps_rollup") as f:
        for line in f:
            if line.startswith("Private_Dirty:"):
                return int(line.split()[1]) / 1024


class ReadsItsItems(Dataset):
    """Item k reads the k-th eighth of the store, then reports the
    worker's private memory; item 0 only reports it (the baseline)."""

    def __init__(self, store):
        self.store = store

    def __len__(self):
        return PARTS + 1

    def __getitem__(self, part):
        if part > 0:
            step = N // PARTS
            for i in range((part - 1) * step, part * step):
                self.store[i]  # only reads the item
        return private_dirty_mib()


# --8<-- [start:gist]
paths = [f"train/img_{i:07d}.png" for i in range(N)]
stores = {
    "list of str": paths,
    "NumPy str array": np.array(paths),
    "tensor": torch.zeros(N, 16),
}
# --8<-- [end:gist]
data_mib = (sys.getsizeof(paths) + sum(map(sys.getsizeof, paths))) / 2**20
growth = {}
for name, store in stores.items():
    loader = DataLoader(ReadsItsItems(store), batch_size=None,
                        num_workers=1)
    readings = list(loader)
    growth[name] = [m - readings[0] for m in readings]

# --8<-- [start:gist]
assert growth["list of str"][-1] > 0.8 * data_mib  # copied as it is read
for name in ("NumPy str array", "tensor"):
    assert growth[name][-1] < 0.1 * data_mib  # stays shared
    print(f"{name}: the worker copied under 10 % of the data")
# --8<-- [end:gist]
copied = growth["list of str"][-1] / data_mib
print(f"list of str: the worker copied {copied:.1f}x the size of its "
      "str objects")

read = np.linspace(0, 100, PARTS + 1)
fig, ax = plt.subplots(figsize=(4.8, 3.2))
# Two lines coincide: dashes and marker sizes keep both in view.
styles = [dict(marker="o"), dict(marker="s", ms=10, mfc="none", ls="--"),
          dict(marker="^", ms=4, ls=":")]
for (name, mib), style in zip(growth.items(), styles):
    ax.plot(read, mib, label=name, **style)
ax.set_xlabel("share of the items the worker has read (%)")
ax.set_ylabel("growth of private memory (MiB)")
ax.set_title("Reading a list copies it into the worker; arrays stay shared")
ax.legend()

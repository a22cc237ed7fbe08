# docexec: measured
import matplotlib.pyplot as plt
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

ROWS, COLS = 8_192, 1_024  # 32 MiB of float32 on disk
np.arange(ROWS * COLS, dtype=np.float32).tofile("features.f32")
FILE_MIB = ROWS * COLS * 4 / 2**20


def resident_mib():
    """Anonymous memory (the process's own) and file-backed pages mapped
    in from the page cache, from /proc/self/status."""
    fields = {}
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(("RssAnon:", "RssFile:")):
                name, kib, _ = line.split()
                fields[name[:-1]] = int(kib) / 1024
    return fields


class Rows(Dataset):
    def __init__(self, features):
        self.features = features

    def __len__(self):
        return len(self.features)

    def __getitem__(self, i):
        row = self.features[i]  # reads one row: 4 KiB
        if isinstance(row, torch.Tensor):
            return row.clone()
        return torch.from_numpy(np.array(row))


openers = {
    "np.fromfile (all in RAM)": lambda: np.fromfile(
        "features.f32", dtype=np.float32).reshape(ROWS, COLS),
    "np.memmap": lambda: np.memmap(
        "features.f32", dtype=np.float32, mode="r", shape=(ROWS, COLS)),
    "torch.from_file": lambda: torch.from_file(
        "features.f32", size=ROWS * COLS, dtype=torch.float32
    ).view(ROWS, COLS),
}
growth = {}
for name, open_features in openers.items():
    start = resident_mib()
    features = open_features()
    readings = []
    for batch in DataLoader(Rows(features), batch_size=512):
        assert batch.shape == (512, COLS)
        del batch
        now = resident_mib()
        readings.append({k: now[k] - start[k] for k in now})
    growth[name] = readings
    del features

# --8<-- [start:gist]
eager, *mapped = growth.values()
assert eager[-1]["RssAnon"] > 0.9 * FILE_MIB  # the whole file, up front
print("np.fromfile: the whole file in the process's own memory")
for name, readings in zip(list(growth)[1:], mapped):
    # Own memory stays at about a batch, however much has been read.
    assert max(r["RssAnon"] for r in readings) < 0.3 * FILE_MIB
    # What was read is mapped from the page cache, which the kernel can
    # drop again (and share with other processes reading the file).
    assert readings[-1]["RssFile"] > 0.9 * FILE_MIB
# --8<-- [end:gist]
    print(f"{name}: own memory stays under 30 % of the file; the pages "
          "read are page cache")

fig, axes = plt.subplots(2, 1, figsize=(4.8, 5.6), sharey=True,
                         layout="constrained")
for name, readings in growth.items():
    steps = range(1, len(readings) + 1)
    for ax, field in zip(axes, ["RssAnon", "RssFile"]):
        ax.plot(steps, [r[field] for r in readings], marker="o", label=name)
axes[0].set_title("own (anonymous) memory")
axes[1].set_title("file pages mapped in")
for ax in axes:
    ax.set_xlabel("batches read (of 16)")
    ax.set_xticks([4, 8, 12, 16])
axes[0].set_ylabel("growth (MiB)")
axes[1].legend(fontsize=10)
fig.suptitle("Memory-mapped data: own memory stays flat while reading")

import numpy as np
import torch
from torch.utils.data import DataLoader, IterableDataset

SHARDS, ROWS, COLS = 8, 2_048, 1_024  # 8 shards of 8 MiB
for k in range(SHARDS):
    np.save(f"shard-{k:02d}.npy",
            np.full((ROWS, COLS), k, dtype=np.float32))
SHARD_MIB = ROWS * COLS * 4 / 2**20


def own_memory_mib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("RssAnon:"):
                return int(line.split()[1]) / 1024


class ShardStream(IterableDataset):
    """Loads one shard, yields its rows, lets it go, opens the next."""

    def __init__(self, paths):
        self.paths = paths

    # --8<-- [start:gist]
    def __iter__(self):
        for path in self.paths:
            shard = torch.from_numpy(np.load(path))
            yield from shard
            del shard
    # --8<-- [end:gist]


paths = [f"shard-{k:02d}.npy" for k in range(SHARDS)]
start = own_memory_mib()
peak, rows, shards_seen = 0.0, 0, set()
# --8<-- [start:gist]
for batch in DataLoader(ShardStream(paths), batch_size=512):
    rows += len(batch)
    shards_seen.update(batch[:, 0].int().tolist())
    peak = max(peak, own_memory_mib() - start)
# --8<-- [end:gist]

# --8<-- [start:gist]
assert rows == SHARDS * ROWS and shards_seen == set(range(SHARDS))
assert peak < 3 * SHARD_MIB  # all 8 shards would be 8 shards' worth
# --8<-- [end:gist]
print(f"read {rows} rows from {len(shards_seen)} shards "
      f"({SHARDS * SHARD_MIB:.0f} MiB)")
print(f"own memory at its peak: under 3 shards' worth "
      f"({3 * SHARD_MIB:.0f} MiB)")

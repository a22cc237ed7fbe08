import random

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Augment(Dataset):  # one random draw from each source per sample
    def __init__(self):
        # made once, in the main process
        self.rng = np.random.default_rng(torch.initial_seed())

    def __len__(self):
        return 2  # one sample per worker

    def __getitem__(self, index):
        return {"random.random()": random.random(),
                "torch.rand()": torch.rand(()).item(),
                "np.random.rand()": np.random.rand(),
                "self.rng.random()": self.rng.random()}


def epochs(persistent):  # [epoch][worker] -> draws
    # --8<-- [start:gist]
    loader = DataLoader(Augment(), batch_size=None, num_workers=2,
                        persistent_workers=persistent)
    # --8<-- [end:gist]
    return [list(loader) for _ in range(2)]


fresh, persistent = epochs(False), epochs(True)
rows = []
for source in fresh[0][0]:
    first = float(fresh[0][0][source])  # epoch 0, worker 0
    rows.append((source,
                 first == float(fresh[0][1][source]),  # worker 1
                 first == float(fresh[1][0][source]),  # epoch 1
                 float(persistent[0][0][source])
                 == float(persistent[1][0][source])))

# --8<-- [start:gist]
# torch seeds random, torch and NumPy's global RNG in every worker, anew
# each epoch; a generator object held by the dataset is copied as it is
assert rows == [("random.random()", False, False, False),
                ("torch.rand()", False, False, False),
                ("np.random.rand()", False, False, False),
                ("self.rng.random()", True, True, False)]
# persistent workers move on between epochs, yet still share one stream
held = "self.rng.random()"
assert persistent[0][0][held] == persistent[0][1][held]
# --8<-- [end:gist]
print(f"{'source':19} {'same in 2 workers':>18} {'same next epoch':>16}"
      f" {'(persistent)':>13}")
for source, workers, epoch, epoch_persistent in rows:
    print(f"{source:19} {workers!s:>18} {epoch!s:>16} {epoch_persistent!s:>13}")
print("persistent workers, self.rng.random() same in 2 workers:",
      persistent[0][0][held] == persistent[0][1][held])

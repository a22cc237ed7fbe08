import random

import numpy as np
import torch
from torch.utils.data import DataLoader

seed = torch.initial_seed() % 2**32  # the run's seed, whatever it is


def one_run(seed_all):
    torch.manual_seed(seed)  # CPU and every CUDA device
    if seed_all:
        random.seed(seed)
        np.random.seed(seed)
    order = [int(b) for b in DataLoader(range(6), shuffle=True)]
    return {"random": random.random(), "numpy": np.random.rand(),
            "torch": torch.rand(1).item(), "shuffle": order}


# --8<-- [start:gist]
first, second = one_run(seed_all=False), one_run(seed_all=False)
assert first["torch"] == second["torch"]  # torch's own draws repeat ...
assert first["shuffle"] == second["shuffle"]  # ... and so does the loader's
assert first["random"] != second["random"]  # but Python's random goes on
assert first["numpy"] != second["numpy"]  # and so does NumPy's
assert one_run(seed_all=True) == one_run(seed_all=True)  # all three seeded
# --8<-- [end:gist]
for name in first:
    print(f"{name:8} run 1 == run 2 with torch.manual_seed only:",
          first[name] == second[name])
print("with random, numpy and torch seeded: every draw repeats")

# docexec: measured timeout=60
import os
import resource
import time
import warnings

import torch
from torch.utils.data import DataLoader, Dataset

torch.set_num_threads(1)
CPU_PER_SAMPLE = 0.002  # seconds of pure CPU work per sample, as in decoding


class Decode(Dataset):
    def __len__(self):
        return 192

    def __getitem__(self, index):
        done = time.thread_time() + CPU_PER_SAMPLE
        while time.thread_time() < done:  # CPU time, not wall time: a busy core
            pass
        return index


def cpu_seconds():  # this process and its ended (joined) workers
    own = resource.getrusage(resource.RUSAGE_SELF)
    ended = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + ended.ru_utime + ended.ru_stime


def epoch(num_workers):
    loader = DataLoader(Decode(), batch_size=8, num_workers=num_workers)
    cpu, start = cpu_seconds(), time.perf_counter()
    samples = sum(len(batch) for batch in loader)  # the end joins the workers
    wall = time.perf_counter() - start
    return {"rate": samples / wall, "busy": (cpu_seconds() - cpu) / wall}


# Two cores on any machine (one where only one is allowed): the same
# proof on a laptop and on a 64-core server.
cores = sorted(os.sched_getaffinity(0))[:2]
os.sched_setaffinity(0, cores)
# --8<-- [start:gist]
with warnings.catch_warnings():  # torch warns: more workers than cores
    warnings.simplefilter("ignore")
    runs = {n: epoch(n) for n in (0, 1, len(cores), 4 * len(cores))}

per_core = 1 / CPU_PER_SAMPLE  # samples/s one busy core can decode
for run in runs.values():
    # every sample costs its CPU: speed comes only from more cores busy
    assert run["rate"] <= 1.05 * run["busy"] * per_core
    assert run["busy"] <= 1.05 * len(cores)  # and no more than allowed
# --8<-- [end:gist]
print(f"{len(cores)} cores allowed; one busy core decodes at most "
      f"{per_core:.0f} samples/s")
print("workers  samples/s  cores busy  samples/s per busy core")
for n, run in runs.items():
    print(f"{n:7d}  {run['rate']:9.0f}  {run['busy']:10.2f}  "
          f"{run['rate'] / run['busy']:22.0f}")

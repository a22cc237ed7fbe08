# docexec: measured
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
        return 96

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


# --8<-- [start:gist]
# this process, and every worker it starts, may run on one core only
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
with warnings.catch_warnings():  # torch warns: more workers than cores
    warnings.simplefilter("ignore")
    runs = {n: epoch(n) for n in (1, 2, 4, 8)}

ceiling = 1 / CPU_PER_SAMPLE  # samples/s that one core can decode
for run in runs.values():
    assert run["busy"] <= 1.05  # never more than one core busy at a time
    assert run["rate"] <= 1.05 * ceiling  # so no worker count beats the ceiling
# --8<-- [end:gist]

print(f"one core decodes at most {ceiling:.0f} samples/s")
print("workers  samples/s  cores busy")
for n, run in runs.items():
    print(f"{n:7d}  {run['rate']:9.0f}  {run['busy']:10.2f}")

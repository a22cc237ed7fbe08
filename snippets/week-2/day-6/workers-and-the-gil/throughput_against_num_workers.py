# docexec: timeout=120 measured
import io
import os
import resource
import time
import warnings

import matplotlib.pyplot as plt
import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset

torch.set_num_threads(1)  # one thread, as in every worker: processes compared
SAMPLES, BATCH = 256, 16


def encode_jpeg(seed):  # a 160 x 160 photo-like JPEG, as read from disk
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:160, 0:160]
    tint = rng.normal(0, 12, (1, 1, 3))
    scene = np.stack([xx, yy, (xx + yy) // 2], -1) + tint
    buffer = io.BytesIO()
    Image.fromarray(scene.clip(0, 255).astype(np.uint8)).save(buffer, "JPEG")
    return buffer.getvalue()


class Photos(Dataset):  # decode, resize, flip, normalize: ~1 ms of CPU each
    def __init__(self):
        self.jpegs = [encode_jpeg(seed) for seed in range(8)]

    def __len__(self):
        return SAMPLES

    def __getitem__(self, index):
        image = Image.open(io.BytesIO(self.jpegs[index % 8])).convert("RGB")
        image = image.resize((128, 128)).transpose(Image.FLIP_LEFT_RIGHT)
        pixels = torch.from_numpy(np.array(image)).permute(2, 0, 1)
        return (pixels.float() / 255 - 0.5) / 0.25


def cpu_seconds():  # this process and its ended (joined) workers
    own = resource.getrusage(resource.RUSAGE_SELF)
    ended = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + ended.ru_utime + ended.ru_stime


def epoch(num_workers):
    loader = DataLoader(Photos(), batch_size=BATCH, num_workers=num_workers)
    cpu, start = cpu_seconds(), time.perf_counter()
    batches = iter(loader)  # starts the workers
    next(batches)
    first = time.perf_counter()
    rest = sum(1 for _ in batches)  # the last batch joins the workers
    end = time.perf_counter()
    return {
        "epoch": SAMPLES / (end - start),  # samples/s, start-up included
        "steady": rest * BATCH / (end - first),  # after the first batch
        "cpu": cpu_seconds() - cpu,
    }


# --8<-- [start:gist]
counts = [0, 1, 2, 4, 8]
with warnings.catch_warnings():  # torch warns above os.cpu_count() workers
    warnings.simplefilter("ignore")
    runs = {n: epoch(n) for n in counts}
# --8<-- [end:gist]
cores = os.cpu_count()

# --8<-- [start:gist]
# each worker is a process to start and feed: CPU spent per epoch grows
assert runs[8]["cpu"] > 1.2 * runs[0]["cpu"]

print(f"os.cpu_count() = {cores}; ratios to num_workers=0:")
print("workers  samples/s (epoch)  samples/s (steady)  CPU seconds")
for n, run in runs.items():
    ratios = [run[key] / runs[0][key] for key in ("epoch", "steady", "cpu")]
    print(f"{n:7d}  " + "  ".join(f"{r:17.1f}x" for r in ratios))
# --8<-- [end:gist]

fig, (left, right) = plt.subplots(2, 1, figsize=(4.8, 5.4))
for key, label in (("epoch", "whole epoch"), ("steady", "after 1st batch")):
    left.plot(counts, [runs[n][key] for n in counts], "o-", label=label)
right.plot(counts, [runs[n]["cpu"] for n in counts], "o-", color="C2")
for ax in (left, right):
    ax.axvline(cores, color="gray", linestyle="--", label="os.cpu_count()")
    ax.set_xlabel("num_workers")
left.set_ylabel("samples / s")
right.set_ylabel("CPU seconds per epoch")
left.legend(fontsize=10)
fig.suptitle(f"Loading JPEGs on {cores} cores:\n"
             "speed and CPU cost by num_workers")
fig.tight_layout()

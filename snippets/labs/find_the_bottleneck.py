# %% [markdown]
# # Find the bottleneck
#
# A training step waits for its batch, then computes. When the input pipeline
# is slow, the model spends most of its time waiting, and no change to the
# model helps. This lab builds a deliberately slow image pipeline, measures it,
# finds the slow part with `torch.profiler`, and fixes one thing at a time,
# measuring again after each fix.
#
# Two measurements run through the lab:
#
# - a stopwatch around the two halves of every step: *waiting for the batch*
#   (`next()` on the loader) and the *train step* (forward, backward, update),
#   in CPU time of the training thread;
# - `torch.profiler`, with `record_function` ranges named `decode`, `augment`
#   and `train_step`, which shows where the CPU time inside them goes.
#
# Times depend on the machine and its load, so the comparisons below are
# ratios, and the stopwatch counts CPU time, which other jobs on the machine
# do not inflate; the percentages printed are this run's measurements.

# %%
# docexec: measured
import time
from statistics import median

import matplotlib.pyplot as plt
import numpy as np
import torch
from PIL import Image
from torch import nn
from torch.profiler import ProfilerActivity, profile, record_function
from torch.utils.data import BatchSampler, DataLoader, Dataset, RandomSampler
from torchguide.drills import check_here

torch.set_num_threads(1)  # steadier timings on a small shared machine

# 128 small PNG files with labels: the dataset as it might arrive on disk.
N, SIZE, BATCH = 128, 32, 16
rng = np.random.default_rng(torch.initial_seed())
yy, xx = np.mgrid[0:SIZE, 0:SIZE]
paths, labels = [], []
for i in range(N):
    label = i % 10
    pattern = (xx * (label + 1) + 3 * yy)[..., None]
    noise = rng.integers(0, 40, (SIZE, SIZE, 3))
    path = f"img{i:03d}.png"
    Image.fromarray(((pattern + noise) % 256).astype(np.uint8)).save(path)
    paths.append(path)
    labels.append(label)
paths, labels = np.array(paths), np.array(labels)
print(len(paths), "PNG files of", SIZE, "x", SIZE, "pixels")

# %% [markdown]
# The model is small on purpose: the question is whether the data can keep up
# with it. `measure` runs one epoch (after one warm-up step, which also starts
# any worker processes) and returns the seconds per step spent waiting for the
# batch and spent in the train step.

# %%
model = nn.Sequential(
    nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10),
)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)


def train_step(images, targets):
    with record_function("train_step"):
        loss = nn.functional.cross_entropy(model(images), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


# The stopwatch reads the training thread's CPU time, not the wall clock:
# other jobs on a busy machine do not inflate it, so the ratios asserted
# below hold under load. It counts the work done in the training process,
# which is what each fix removes.
clock = time.thread_time


def measure(loader, steps=None):
    batches = iter(loader)
    train_step(*next(batches))  # warm-up
    waiting = computing = 0.0
    done = 0
    while steps is None or done < steps:
        start = clock()
        try:
            images, targets = next(batches)
        except StopIteration:
            break
        loaded = clock()
        train_step(images, targets)
        waiting += loaded - start
        computing += clock() - loaded
        done += 1
    return waiting / done, computing / done


def profile_table(loader, steps=3):
    """Prints the profiler's table; returns each label's time per call (us)."""
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        measure(loader, steps)
    print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=8))
    calls = {}
    for event in prof.events():
        calls.setdefault(event.name, []).append(event.cpu_time_total)
    return calls


results = {}  # stage -> (waiting, computing) seconds per step

# %% [markdown]
# ## Version 1: everything per sample, in Python, in the main process
#
# The dataset decodes the PNG on every access, then augments it the way code
# grows when nobody measures: pixels turned into nested Python lists, flipped
# and normalized one number at a time, then made into a tensor; the label is a
# tiny tensor of its own. `num_workers=0`, so all of it runs in the training
# process, between two train steps.

# %%
class SlowPNGs(Dataset):
    def __len__(self):
        return N

    def __getitem__(self, i):
        with record_function("decode"):
            image = Image.open(paths[i]).convert("RGB")
        with record_function("augment"):
            rows = np.asarray(image).tolist()  # H x W x 3 Python ints
            if torch.rand(()) < 0.5:  # random horizontal flip
                rows = [row[::-1] for row in rows]
            pixels = [[[(c / 255 - 0.5) / 0.5 for c in px] for px in row]
                      for row in rows]
            image = torch.tensor(pixels).permute(2, 0, 1)
        return image, torch.tensor(labels[i])


results["1. Python per sample"] = measure(
    DataLoader(SlowPNGs(), batch_size=BATCH, shuffle=True))
waiting, computing = results["1. Python per sample"]
assert waiting > computing  # the model waits for its data
print(f"waiting for data: {waiting / (waiting + computing):.0%} of a step")

# %% [markdown]
# Most of each step is spent waiting for the batch. Which part of loading? The
# profiler's table, sorted by total CPU time, names the ranges and the
# operators. `enumerate(DataLoader)...` is the loader producing a batch; under
# it, `augment` and `decode` are the ranges opened in `__getitem__`.

# %%
cpu = profile_table(DataLoader(SlowPNGs(), batch_size=BATCH, shuffle=True))
augment = sum(cpu["augment"])
assert augment > sum(cpu["decode"]) and augment > sum(cpu["train_step"])

# %% [markdown]
# ## Fix 1: augment with tensor operations
#
# The Python-level augmentation costs more than decoding the image and far more
# than the train step. The same flip and normalization as tensor operations
# run in C++ over all pixels at once. The label is returned as a plain `int`:
# the default collate turns the batch's labels into one tensor.

# %%
class PNGs(Dataset):
    def __len__(self):
        return N

    def __getitem__(self, i):
        with record_function("decode"):
            image = Image.open(paths[i]).convert("RGB")
        with record_function("augment"):
            image = torch.from_numpy(np.array(image)).permute(2, 0, 1)
            if torch.rand(()) < 0.5:
                image = image.flip(-1)
            image = (image.float() / 255 - 0.5) / 0.5
        return image, int(labels[i])


results["2. tensor ops"] = measure(
    DataLoader(PNGs(), batch_size=BATCH, shuffle=True))
before = sum(results["1. Python per sample"])
after = sum(results["2. tensor ops"])
assert before / after > 2
print(f"step time: {before / after:.0f}x shorter than version 1")
waiting, computing = results["2. tensor ops"]
print(f"waiting for data: {waiting / (waiting + computing):.0%} of a step")
cpu = profile_table(DataLoader(PNGs(), batch_size=BATCH, shuffle=True))

# %% [markdown]
# The step is several times shorter, but the model still spends most of it
# waiting: decoding and augmenting now cost the same order of time, and
# both still run one sample at a time, in the training process.

# %% [markdown]
# ## Fix 2: load in worker processes
#
# Loading is still done between train steps, one sample at a time, in the
# training process. With `num_workers=2`, two worker processes decode and
# augment the next batches *while* the main process trains, so the wait can
# shrink to the time it takes to receive a finished batch. The stopwatch shows
# that work leaving the training process. Whether the wall-clock step gets as
# much shorter depends on free CPU cores: each worker needs one, and the
# training process needs its own, so on a busy or small machine the gain in
# wall time can vanish.

# %%
results["3. + 2 workers"] = measure(
    DataLoader(PNGs(), batch_size=BATCH, shuffle=True, num_workers=2))
gain = sum(results["2. tensor ops"]) / sum(results["3. + 2 workers"])
print(f"training-process time per step with 2 workers: {gain:.1f}x shorter")

# %% [markdown]
# ## Fix 3: decode once, augment a whole batch at a time
#
# Every epoch decodes the same PNG files again. Decoding them once, into one
# `uint8` tensor (for data larger than memory: a `.npy` file opened with
# `np.memmap`), removes the decode from the loop. Then a sample is one row of
# that tensor, and per-sample work is pure overhead: with a `BatchSampler` as
# the sampler, `__getitem__` receives the indices of a whole batch, gathers
# them with one indexing operation, and flips and normalizes the batch at once.

# %%
decoded = torch.stack([
    torch.from_numpy(np.array(Image.open(p).convert("RGB"))) for p in paths
]).permute(0, 3, 1, 2).contiguous()
targets_all = torch.from_numpy(labels)
print("decoded once:", tuple(decoded.shape), decoded.dtype,
      f"{decoded.nbytes / 2**10:.0f} KiB")

# %% [markdown]
# ### Your turn: augment a whole batch at once
#
# Write `augment_batch(images, flip)`: `images` is a batch of decoded images, a
# `uint8` tensor of shape `(B, 3, H, W)` (such as `decoded[:4]`; `B` may be
# 0), and `flip` a `bool` tensor of shape `(B,)`. Return a new `float32`
# tensor of the same shape: image `i` flipped left to right (along its width)
# where `flip[i]` is True, and every value `v` mapped to
# `(v / 255 - 0.5) / 0.5`, in `[-1, 1]`, as `PNGs` does one image at a time;
# leave `images` as it is. The point is to do it for the whole batch at once,
# with tensor operations (the checker checks the result, not how it was made).
# Then run the check cell: it tries your function on named cases and
# generated ones and says what differs (`python -m torchguide.drills show
# augment_batch` prints hints).

# %% active="ipynb"
# def augment_batch(images: torch.Tensor, flip: torch.Tensor) -> torch.Tensor:
#     raise NotImplementedError("write augment_batch here")

# %% active="ipynb" tags=["raises-exception"]
# # Checks your augment_batch: run the cell above first, then this one.
# from torchguide.drills import check_here
#
# check_here("augment_batch", augment_batch)

# %% [markdown]
# One way to do it, which the dataset below uses (running this cell replaces
# your function; run your cell again to get it back). `torch.where` broadcasts
# its condition against the images from the right, so `flip` is given the
# shape `(B, 1, 1, 1)` first; as `(B,)` it would be matched against the
# images' width.

# %%
def augment_batch(images, flip):
    images = torch.where(flip[:, None, None, None], images.flip(-1), images)
    return (images.float() / 255 - 0.5) / 0.5


check_here("augment_batch", augment_batch)


class DecodedBatches(Dataset):
    def __len__(self):
        return N

    def __getitem__(self, indices):  # a whole batch of indices
        with record_function("augment"):
            flip = torch.rand(len(indices)) < 0.5
            images = augment_batch(decoded[indices], flip)
        return images, targets_all[indices]


def batch_loader():
    sampler = BatchSampler(RandomSampler(range(N)), BATCH, drop_last=False)
    return DataLoader(DecodedBatches(), sampler=sampler, batch_size=None)


results["4. decoded once, per batch"] = measure(batch_loader())
tensor_ops = sum(results["2. tensor ops"])
assert tensor_ops / sum(results["4. decoded once, per batch"]) > 2
cpu = profile_table(batch_loader(), steps=8)
# Now the model is the work. Compared by the median call, not the total: these
# take a millisecond or less, so one call during which another process had the
# CPU would outweigh all the others.
assert median(cpu["train_step"]) > median(cpu["augment"])

# %% [markdown]
# Now `train_step` and the model's own operators lead the table: the pipeline
# has stopped being the bottleneck, and further speed has to come from the
# model (or, on a GPU, from keeping the GPU fed: pinned memory and
# `non_blocking` copies, on the Day 6 page about worker memory and transfer).
#
# ## All versions side by side

# %%
baseline = sum(results["1. Python per sample"])
stages = list(results)
waits = [results[s][0] / baseline for s in stages]
computes = [results[s][1] / baseline for s in stages]
fig, ax = plt.subplots(figsize=(6, 3))
ax.barh(stages, waits, label="waiting for the batch")
ax.barh(stages, computes, left=waits, label="train step")
ax.invert_yaxis()
ax.set_xlabel("CPU time per step, training thread (version 1 = 1)")
ax.set_title("Where each step's time goes, version by version")
ax.legend(loc="lower right")
for stage in stages:
    print(f"{stage:27} {baseline / sum(results[stage]):5.1f}x less CPU time "
          "per step than version 1")

# %% [markdown]
# What to take away:
#
# 1. **Measure before changing anything.** The split between waiting and
#    computing says whether the data is the problem at all; the profiler's
#    table, with your own `record_function` ranges, says which part of it.
# 2. **Per-sample Python is the usual culprit.** Work on one number or one
#    sample at a time in Python costs far more than the same work as tensor
#    operations on a whole batch.
# 3. **Do expensive work once.** Decoding the same files every epoch repeats
#    work whose result never changes; store the decoded data (memory-mapped if
#    it is large) and keep only the random augmentations in the loop.
# 4. **Workers hide loading behind compute only when there are cores for
#    them.** Check the number of free cores before raising `num_workers`.

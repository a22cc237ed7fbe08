# docexec: timeout=60 measured
import time

import matplotlib.pyplot as plt
from torch.utils.data import DataLoader, Dataset

STEP, FAST, SLOW, BATCHES = 0.015, 0.001, 0.150, 50


class SpikyStorage(Dataset):  # every 7th read takes 150 ms (a slow disk)
    def __len__(self):
        return BATCHES

    def __getitem__(self, index):
        time.sleep(SLOW if index % 7 == 6 else FAST)  # waiting, not CPU
        return index


def train(batches):
    """Batches/s, and the stalls: waits for a batch of a third of a slow
    read or more (a fast read's wait is milliseconds)."""
    stalls = 0
    start = waited = time.perf_counter()
    for _ in batches:
        stalls += time.perf_counter() - waited > SLOW / 3
        time.sleep(STEP)  # the training step (on a GPU, say)
        waited = time.perf_counter()
    return (BATCHES - 1) / (time.perf_counter() - start), stalls


# --8<-- [start:gist]
def run_epoch(prefetch_factor):
    loader = DataLoader(SpikyStorage(), num_workers=2,
                        prefetch_factor=prefetch_factor)
    batches = iter(loader)
    next(batches)  # the workers have started
    return train(batches)
# --8<-- [end:gist]


limit, _ = train(range(BATCHES - 1))  # the step alone: never waits
factors = [1, 2, 4, 8]
# --8<-- [start:gist]
runs = {f: run_epoch(f) for f in factors}
speed = {f: runs[f][0] for f in factors}
stalls = {f: runs[f][1] for f in factors}
# --8<-- [end:gist]

# on average the reads keep up; only a deep queue also hides the slow ones:
# with one batch per worker in flight most of the 7 slow reads stall the
# loop, with 8 (nearly) none do. Counts of stalls, not timings, are
# asserted, and as a difference: a busy machine can add a 50 ms wait to
# either run, not hide a slow read.
# --8<-- [start:gist]
assert stalls[1] >= 4 and stalls[1] - stalls[8] >= 4, stalls
# --8<-- [end:gist]
print("batches/s as a share of the training step's own speed (this run),")
print("and the loop's stalls on one of the 7 slow reads:")
for factor in factors:
    print(f"  prefetch_factor={factor}: {speed[factor] / limit:4.0%}, "
          f"{stalls[factor]} stalls")

fig, ax = plt.subplots(figsize=(4.8, 3.2))
ax.plot(factors, [speed[f] for f in factors], "o-", label="2 workers")
ax.axhline(limit, color="gray", linestyle="--", label="training step alone")
ax.set_xscale("log", base=2)
ax.set_xticks(factors, [str(f) for f in factors])
ax.set_xlabel("prefetch_factor")
ax.set_ylabel("batches / s")
ax.set_ylim(0, limit * 1.1)
ax.legend(loc="lower right")
ax.set_title("A deeper prefetch queue hides slow reads")

# docexec: timeout=60
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
    start = time.perf_counter()
    for _ in batches:
        time.sleep(STEP)  # the training step (on a GPU, say)
    return (BATCHES - 1) / (time.perf_counter() - start)  # batches/s


# --8<-- [start:gist]
def batches_per_second(prefetch_factor):
    loader = DataLoader(SpikyStorage(), num_workers=2,
                        prefetch_factor=prefetch_factor)
    batches = iter(loader)
    next(batches)  # the workers have started
    return train(batches)
# --8<-- [end:gist]


# --8<-- [start:gist]
limit = train(range(BATCHES - 1))  # the step alone: data never waited for
factors = [1, 2, 4, 8]
speed = {f: batches_per_second(f) for f in factors}

# on average the reads keep up; only a deep queue also hides the slow ones
assert speed[8] > 1.2 * speed[1]
# --8<-- [end:gist]
print("batches/s, as a share of the training step's own speed:")
for factor in factors:
    print(f"  prefetch_factor={factor}: {speed[factor] / limit:.0%}")

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

# docexec: timeout=60
import time
import warnings

import torch
from torch import nn
from torch.profiler import profile, record_function, schedule
from torch.utils.data import DataLoader, Dataset


class SlowStorage(Dataset):
    def __len__(self):
        return 512

    def __getitem__(self, i):
        time.sleep(0.010)  # stands in for reading a file from slow storage
        return torch.full((512,), float(i % 7)), i % 2


torch.set_num_threads(1)  # steadier step times on a shared machine
# more workers than CPU cores is fine here: they wait on storage, not on CPU
warnings.filterwarnings("ignore", "This DataLoader will create")
model = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(),
                      nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
STEPS = 10


def profile_training(loader):
    batches = iter(loader)
    # skip 4 steps (workers starting), then record STEPS steps
    plan = schedule(wait=2, warmup=2, active=STEPS)
    with profile(schedule=plan) as prof:
        for _ in range(STEPS + 4):
            # --8<-- [start:gist]
            with record_function("wait_for_data"):
                x, y = next(batches)
            # --8<-- [end:gist]
            with record_function("train_step"):
                loss = nn.functional.cross_entropy(model(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
            prof.step()
    return {e.key: e for e in prof.key_averages()}


# --8<-- [start:gist]
for workers in (0, 8):
    stats = profile_training(
        DataLoader(SlowStorage(), batch_size=16, num_workers=workers))
# --8<-- [end:gist]
    wait = stats["wait_for_data"].cpu_time_total
    step = stats["train_step"].cpu_time_total
    # the DataLoader labels its own __next__ calls in every profile
    loader_range = next(k for k in stats if "DataLoader" in k)
    assert stats["wait_for_data"].count == stats[loader_range].count == STEPS
    share = wait / (wait + step)
    # --8<-- [start:gist]
    if workers == 0:
        share_before, wait_before, loop_before = share, wait, wait + step
        assert share_before > 0.5
    else:  # wide margins: timings on a busy machine vary
        assert wait < wait_before / 3 and share < share_before
        speedup = loop_before / (wait + step)
        assert speedup > 1.5
    # --8<-- [end:gist]
    # the bounds asserted, not this run's timings: the same in every build
    print(f"num_workers={workers}")
    print(f"  {loader_range}: {stats[loader_range].count} calls")
    if workers == 0:
        print("  waiting for data: more than half of the loop")
    else:
        print("  waiting for data: less than a third of the time before")

print("the loop runs more than 1.5x faster with 8 workers")

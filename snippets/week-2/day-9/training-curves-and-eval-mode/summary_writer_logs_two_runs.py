# docexec: timeout=60
import os

import torch
from tensorboard.backend.event_processing import event_accumulator as ea
from torch import nn
from torch.utils.tensorboard import SummaryWriter

x = torch.randn(256, 8)
y = x @ torch.randn(8, 1)
printed = {}
seed = torch.initial_seed()

for lr in (0.01, 0.1):  # two runs, one folder each
    torch.manual_seed(seed)  # the same start for both runs
    model = nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    # --8<-- [start:gist]
    with SummaryWriter(f"runs/lr={lr}") as writer:
        for step in range(20):
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(x), y)
            loss.backward()
            opt.step()
            writer.add_scalar("loss/train", loss.item(), step)
            printed[lr, step] = loss.item()
    # --8<-- [end:gist]
    # the with block closed the writer, which flushes the event file

# Another program (TensorBoard) reads the files back, run by run.
print("run folders:", sorted(os.listdir("runs")))
# --8<-- [start:gist]
for lr in (0.01, 0.1):
    log = ea.EventAccumulator(f"runs/lr={lr}").Reload()
    events = log.Scalars("loss/train")
    assert [e.step for e in events] == list(range(20))
# --8<-- [end:gist]
    for e in events:  # the value as float32
        assert e.value == torch.tensor(printed[lr, e.step]).item()
    times = [e.wall_time for e in events]
    assert times == sorted(times)
    print(f"lr={lr}: tags {log.Tags()['scalars']}, {len(events)} points, "
          f"loss {events[0].value:.3f} -> {events[-1].value:.3f}")

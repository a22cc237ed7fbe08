# docexec: timeout=60
import torch
from tensorboard.backend.event_processing import event_accumulator as ea
from torch import nn
from torch.utils.tensorboard import SummaryWriter

x = torch.randn(256, 8)
y = x @ torch.randn(8, 4)
model = nn.Linear(8, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
logged = {}

with SummaryWriter("runs/histograms") as writer:
    for step in range(31):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        # --8<-- [start:gist]
        if step % 10 == 0:
            writer.add_histogram("weight", model.weight, step)
            writer.add_histogram("weight.grad", model.weight.grad, step)
        # --8<-- [end:gist]
            logged[step] = model.weight.detach().clone()
        opt.step()

# --8<-- [start:gist]
# By default the reader keeps one histogram per tag; 0 means keep all.
default = ea.EventAccumulator("runs/histograms").Reload()
assert len(default.Histograms("weight")) == 1
log = ea.EventAccumulator("runs/histograms",
                          size_guidance={ea.HISTOGRAMS: 0}).Reload()
# --8<-- [end:gist]
print("histogram tags:", log.Tags()["histograms"],
      "| distribution tags:", log.Tags()["distributions"])
print("step   n     min     max   mean")
for event in log.Histograms("weight"):
    h = event.histogram_value  # a summary: count, range, sums and buckets
    w = logged[event.step]
    assert h.num == w.numel() == sum(h.bucket)
    assert abs(h.min - w.min()) < 1e-6 and abs(h.max - w.max()) < 1e-6
    assert abs(h.sum / h.num - w.mean()) < 1e-6
    print(f"{event.step:4} {h.num:3.0f} {h.min:7.3f} {h.max:7.3f} "
          f"{h.sum / h.num:6.3f}")
# --8<-- [start:gist]
assert [e.step for e in log.Histograms("weight")] == [0, 10, 20, 30]
# --8<-- [end:gist]

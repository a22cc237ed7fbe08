# docexec: cuda
import torch
from torch import nn

model = nn.Sequential(nn.Linear(256, 1024), nn.ReLU(),
                      nn.Linear(1024, 1)).cuda()
x = torch.randn(64, 256, device="cuda")
y = torch.randn(64, 1, device="cuda")


def growth_per_step(keep, steps=10):
    kept = []
    before = torch.cuda.memory_allocated()  # bytes held by live tensors
    # --8<-- [start:gist]
    for _ in range(steps):
        loss = nn.functional.mse_loss(model(x), y)  # evaluation, no backward
        kept.append(keep(loss))
    # --8<-- [end:gist]
    del loss  # count only what the list keeps
    return (torch.cuda.memory_allocated() - before) / steps


with torch.no_grad():
    model(x)  # warm-up: cuBLAS allocates its workspace on the first matmul


# --8<-- [start:gist]
hidden = 64 * 1024 * 4  # the ReLU output each graph saves
leaking = growth_per_step(lambda loss: loss)
fixed = growth_per_step(lambda loss: loss.item())
assert hidden <= leaking < 1.5 * hidden and fixed == 0
# --8<-- [end:gist]
print(f"losses.append(loss):        +{leaking / 1024:.1f} KiB per step")
print(f"losses.append(loss.item()): +{fixed / 1024:.1f} KiB per step")
# the allocator's own report: allocated vs reserved memory, per pool
# --8<-- [start:gist]
summary = torch.cuda.memory_summary(abbreviated=True)
assert "Allocated memory" in summary
# --8<-- [end:gist]
print(summary)

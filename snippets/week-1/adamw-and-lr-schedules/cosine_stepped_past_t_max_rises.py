import torch
from torch.optim.lr_scheduler import CosineAnnealingLR

EPOCHS, BATCHES = 4, 5
optimizer = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1)
# --8<-- [start:gist]
# T_max counted in epochs, but stepped once per batch:
scheduler = CosineAnnealingLR(optimizer, T_max=EPOCHS)
lrs = []
for _ in range(EPOCHS * BATCHES):
    optimizer.step()
    scheduler.step()
    lrs.append(optimizer.param_groups[0]["lr"])
# --8<-- [end:gist]
bottom = lrs.index(min(lrs))
assert bottom == EPOCHS - 1 and lrs[2 * EPOCHS - 1] > 0.0999
print("lowest lr after", bottom + 1, "of", EPOCHS * BATCHES, "batches;",
      f"back to {lrs[2 * EPOCHS - 1]:.3f} after {2 * EPOCHS}")
print("lr per batch:", " ".join(f"{lr:.2f}" for lr in lrs))

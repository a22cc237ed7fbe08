import math

import torch
from torch.optim.lr_scheduler import CosineAnnealingLR, LinearLR, SequentialLR

BASE_LR, WARMUP, TOTAL, MIN_LR = 1e-3, 5, 25, 1e-5
model = torch.nn.Linear(4, 1)
optimizer = torch.optim.AdamW(model.parameters(), lr=BASE_LR)
# --8<-- [start:gist]
scheduler = SequentialLR(optimizer, milestones=[WARMUP], schedulers=[
    LinearLR(optimizer, start_factor=1 / WARMUP, total_iters=WARMUP),
    CosineAnnealingLR(optimizer, T_max=TOTAL - WARMUP, eta_min=MIN_LR),
])
used = []
for _ in range(TOTAL):  # once per batch: the schedule counts steps
    used.append(optimizer.param_groups[0]["lr"])
    model(torch.randn(8, 4)).pow(2).mean().backward()
    optimizer.step()
    optimizer.zero_grad()
    scheduler.step()  # after optimizer.step()
# --8<-- [end:gist]


def expected(step):
    if step < WARMUP:  # linear from BASE_LR / WARMUP up to BASE_LR
        start = 1 / WARMUP
        return BASE_LR * (start + (1 - start) * step / WARMUP)
    progress = (step - WARMUP) / (TOTAL - WARMUP)
    return MIN_LR + (BASE_LR - MIN_LR) * (1 + math.cos(math.pi * progress)) / 2


assert all(math.isclose(u, expected(s), rel_tol=1e-6)
           for s, u in enumerate(used))
assert max(used) == used[WARMUP] == BASE_LR
print("lr per step matches warmup + cosine:", True)
print("steps 0-5:", " ".join(f"{u:.2e}" for u in used[:6]))
print("last 3   :", " ".join(f"{u:.2e}" for u in used[-3:]))

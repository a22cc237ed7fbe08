import warnings

import torch
from torch.optim.lr_scheduler import LinearLR


def lrs_used(scheduler_first):
    w = torch.nn.Parameter(torch.zeros(1))
    optimizer = torch.optim.SGD([w], lr=1.0)
    scheduler = LinearLR(optimizer, start_factor=0.25, total_iters=3)
    used = []
    for _ in range(4):
        w.grad = torch.ones(1)
        if scheduler_first:
            scheduler.step()  # the order of PyTorch before 1.1
        used.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        if not scheduler_first:
            scheduler.step()
    return used


# --8<-- [start:gist]
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    right = lrs_used(scheduler_first=False)
    wrong = lrs_used(scheduler_first=True)
message = str(caught[0].message)
assert "before `optimizer.step()`" in message
assert right == [0.25, 0.5, 0.75, 1.0] and wrong == [0.5, 0.75, 1.0, 1.0]
# --8<-- [end:gist]
print("warning:", message.split(". ")[0] + ".")
print("lr used by each step, optimizer first:", right)
print("lr used by each step, scheduler first:", wrong)

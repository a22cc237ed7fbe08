import torch
from torchguide.drills import check_here


@torch.no_grad()
def ema_update(averaged, current, n_averaged, decay):
    """AveragedModel's EMA: a copy first, then decay towards the model."""
    for mine, theirs in zip(averaged, current):
        if n_averaged == 0:
            mine.copy_(theirs)  # start from the model, not from zeros
        else:
            mine.mul_(decay).add_(theirs, alpha=1 - decay)


check_here("ema_of_weights", ema_update)

# expect: (torch.float64, seed 6) after update 2 your averaged[0] is
# The mistake: decay and 1 - decay swapped, so the average follows the model.
import torch


@torch.no_grad()
def ema_update(averaged, current, n_averaged, decay):
    for mine, theirs in zip(averaged, current, strict=True):
        if n_averaged == 0:
            mine.copy_(theirs)
        else:
            mine.mul_(1 - decay).add_(theirs, alpha=decay)

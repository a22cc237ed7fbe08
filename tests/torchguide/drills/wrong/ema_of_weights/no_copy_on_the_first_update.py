# expect: after update 1 your averaged[0] is not the model's: AveragedModel's first update
# The mistake: the first update averaged like the others, from the values the average held.
import torch


@torch.no_grad()
def ema_update(averaged, current, n_averaged, decay):
    for mine, theirs in zip(averaged, current, strict=True):
        mine.lerp_(theirs, 1 - decay)

# expect: at update 1 your ema_update replaced averaged[0]; update it in place
# The mistake: new tensors put in the list, so the module's own parameters never change.
import torch


@torch.no_grad()
def ema_update(averaged, current, n_averaged, decay):
    for i, theirs in enumerate(current):
        if n_averaged == 0:
            averaged[i] = theirs.clone()
        else:
            averaged[i] = decay * averaged[i] + (1 - decay) * theirs

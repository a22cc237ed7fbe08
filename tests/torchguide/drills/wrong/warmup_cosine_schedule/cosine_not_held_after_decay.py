# expect: at step 26, after the decay, your rate is 1.60943e-05; expected 1e-05: the cosine rose again after decay_steps; hold min_lr from there on
# The mistake: the cosine left to run past its end, as CosineAnnealingLR stepped past T_max does.
import math


def lr_at(step, base_lr, min_lr, warmup_steps, decay_steps):
    if step < warmup_steps:
        start = base_lr / warmup_steps
        return start + (base_lr - start) * step / warmup_steps
    progress = (step - warmup_steps) / (decay_steps - warmup_steps)
    return min_lr + (base_lr - min_lr) * (1 + math.cos(math.pi * progress)) / 2

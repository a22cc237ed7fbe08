# expect: at step 6, in the cosine decay, your rate is 0.001; expected 0.000993906
# The mistake: the progress by floor division, 0 until the last step: the rate stays at its peak.
import math


def lr_at(step, base_lr, min_lr, warmup_steps, decay_steps):
    if step < warmup_steps:
        start = base_lr / warmup_steps
        return start + (base_lr - start) * step / warmup_steps
    if step >= decay_steps:
        return min_lr
    progress = (step - warmup_steps) // (decay_steps - warmup_steps)
    return min_lr + (base_lr - min_lr) * (1 + math.cos(math.pi * progress)) / 2

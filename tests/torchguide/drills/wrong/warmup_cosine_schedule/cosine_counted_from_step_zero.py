# expect: at step 5, where the warmup ends and the cosine starts, your rate is 0.000905463; expected 0.001: the cosine's progress was counted from step 0
# The mistake: the cosine's progress counted from step 0, so the warmup's steps are taken out of
# the decay: the peak is never reached.
import math


def lr_at(step, base_lr, min_lr, warmup_steps, decay_steps):
    if step < warmup_steps:
        start = base_lr / warmup_steps
        return start + (base_lr - start) * step / warmup_steps
    progress = min(1.0, step / decay_steps)
    return min_lr + (base_lr - min_lr) * (1 + math.cos(math.pi * progress)) / 2

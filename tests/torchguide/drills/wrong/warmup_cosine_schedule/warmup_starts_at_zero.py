# expect: at step 0, the first step, your rate is 0; expected 0.0002: a step at rate 0 trains nothing
# The mistake: a warmup line from 0, base_lr * step / warmup_steps: the first step is taken at
# rate 0 and trains nothing.
import math


def lr_at(step, base_lr, min_lr, warmup_steps, decay_steps):
    if step < warmup_steps:
        return base_lr * step / warmup_steps
    if step >= decay_steps:
        return min_lr
    progress = (step - warmup_steps) / (decay_steps - warmup_steps)
    return min_lr + (base_lr - min_lr) * (1 + math.cos(math.pi * progress)) / 2

import math

from torchguide.drills import check_here


def lr_at(step, base_lr, min_lr, warmup_steps, decay_steps):
    if step < warmup_steps:  # a line from base_lr / warmup_steps up
        start = base_lr / warmup_steps
        return start + (base_lr - start) * step / warmup_steps
    if step >= decay_steps:  # held: a cosine would rise again
        return min_lr
    progress = (step - warmup_steps) / (decay_steps - warmup_steps)
    cosine = (1 + math.cos(math.pi * progress)) / 2  # 1 down to 0
    return min_lr + (base_lr - min_lr) * cosine


check_here("warmup_cosine_schedule", lr_at)

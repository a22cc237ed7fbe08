# expect: at step 6, in the cosine decay, your rate is 0.000993844; expected 0.000993906: the decay goes down to 0, not to min_lr
# The mistake: the cosine of torch's CosineAnnealingLR with eta_min left at 0: min_lr is never reached.
import math


def lr_at(step, base_lr, min_lr, warmup_steps, decay_steps):
    if step < warmup_steps:
        start = base_lr / warmup_steps
        return start + (base_lr - start) * step / warmup_steps
    progress = min(1.0, (step - warmup_steps) / (decay_steps - warmup_steps))
    return base_lr * (1 + math.cos(math.pi * progress)) / 2

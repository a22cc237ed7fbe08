# expect: your lr_at answered 0.0002, then 1e-05: the rate must depend on the step alone, not on the calls before
# The mistake: the step counted by the function itself, as if it were called once per step in
# order; LambdaLR calls it again on a load_state_dict, and a resumed run starts elsewhere.
import math

calls = 0


def lr_at(step, base_lr, min_lr, warmup_steps, decay_steps):
    global calls
    step, calls = calls, calls + 1
    if step < warmup_steps:
        start = base_lr / warmup_steps
        return start + (base_lr - start) * step / warmup_steps
    if step >= decay_steps:
        return min_lr
    progress = (step - warmup_steps) / (decay_steps - warmup_steps)
    return min_lr + (base_lr - min_lr) * (1 + math.cos(math.pi * progress)) / 2

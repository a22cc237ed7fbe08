def lr_at(step, base_lr, min_lr, warmup_steps, decay_steps):
    """A learning rate with linear warmup, then cosine decay."""
    raise NotImplementedError

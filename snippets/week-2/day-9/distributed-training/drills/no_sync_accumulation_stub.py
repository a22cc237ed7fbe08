def accumulate(model, micro_batches):
    """Gradient accumulation under DDP, one all-reduce a step."""
    raise NotImplementedError

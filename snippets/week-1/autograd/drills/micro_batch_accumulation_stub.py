def accumulate_gradients(model, inputs, targets, micro_batch_size):
    """Gradient accumulation over micro-batches of unequal size."""
    raise NotImplementedError

def dead_units(model, batches):
    """Dead ReLU units over a few batches."""
    raise NotImplementedError

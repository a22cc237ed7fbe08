def export_dynamic_batch(model, example):
    """A module exported with a dynamic batch dimension."""
    raise NotImplementedError

def jacobian(f, x):
    """A Jacobian from one vector-Jacobian product per output."""
    raise NotImplementedError

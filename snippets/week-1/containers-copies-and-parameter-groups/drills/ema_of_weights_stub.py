def ema_update(averaged, current, n_averaged, decay):
    """An exponential moving average of weights, as AveragedModel keeps it."""
    raise NotImplementedError

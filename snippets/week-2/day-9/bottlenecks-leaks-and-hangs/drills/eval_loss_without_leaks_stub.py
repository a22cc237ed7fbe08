def mean_eval_loss(model, loss_fn, batches):
    """An evaluation loss that keeps no graph alive."""
    raise NotImplementedError

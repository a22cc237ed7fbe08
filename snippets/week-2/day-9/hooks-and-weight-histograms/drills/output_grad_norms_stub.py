def output_grad_norms(model, x):
    """Each layer's output-gradient norm, with backward hooks."""
    raise NotImplementedError

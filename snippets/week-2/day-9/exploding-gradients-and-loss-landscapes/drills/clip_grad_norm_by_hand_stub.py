def clip_grad_norm(parameters, max_norm):
    """Clipping gradients by their global norm."""
    raise NotImplementedError

def param_groups(model, weight_decay):
    """Parameter groups without weight decay on biases and norms."""
    raise NotImplementedError

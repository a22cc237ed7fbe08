def training_bytes(model, amsgrad):
    """The memory a model needs to train with Adam."""
    raise NotImplementedError

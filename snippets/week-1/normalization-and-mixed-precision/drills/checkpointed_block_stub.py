def checkpointed_block(x, w1, w2):
    """Gradient checkpointing of a block, by hand."""
    raise NotImplementedError

def rotary_embedding(x, positions, base):
    """Rotary position embeddings, and their relative-position property."""
    raise NotImplementedError

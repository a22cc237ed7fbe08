def padding_causal_mask(lengths, max_len, left_padded):
    """A padding mask combined with a causal mask."""
    raise NotImplementedError

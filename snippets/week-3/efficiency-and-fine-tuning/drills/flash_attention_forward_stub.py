def flash_attention(q, k, v, causal, block):
    """FlashAttention's tiled online softmax."""
    raise NotImplementedError

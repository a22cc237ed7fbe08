def decode_step(q, k_new, v_new, cache_k, cache_v):
    """One decoding step with a KV cache."""
    raise NotImplementedError

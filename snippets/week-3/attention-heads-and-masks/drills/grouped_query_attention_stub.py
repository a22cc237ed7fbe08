def grouped_query_attention(
    x, w_q, w_k, w_v, w_o, num_heads, num_kv_heads, causal
):
    """Multi-head attention with grouped-query heads."""
    raise NotImplementedError

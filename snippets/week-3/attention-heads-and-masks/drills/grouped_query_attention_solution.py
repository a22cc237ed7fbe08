import math

import torch
from torchguide.drills import check_here


def grouped_query_attention(
    x, w_q, w_k, w_v, w_o, num_heads: int, num_kv_heads: int, causal: bool
):
    """Multi-head attention whose query heads share key/value heads."""
    batch, length, _ = x.shape
    width = w_q.shape[0] // num_heads  # E, the width of one head

    def heads(weight, count):  # (B, L, count * E) -> (B, count, L, E)
        return (x @ weight.T).view(batch, length, count, width).transpose(1, 2)

    q = heads(w_q, num_heads)
    k, v = heads(w_k, num_kv_heads), heads(w_v, num_kv_heads)
    group = num_heads // num_kv_heads  # query heads per key/value head
    k = k.repeat_interleave(group, dim=1)  # [k0, k0, k1, k1]: h // group
    v = v.repeat_interleave(group, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(width)
    if causal:
        seen = torch.ones(length, length, dtype=torch.bool).tril()
        scores = scores.masked_fill(~seen, float("-inf"))
    out = scores.softmax(dim=-1) @ v  # (B, num_heads, L, E)
    return out.transpose(1, 2).reshape(batch, length, -1) @ w_o.T


check_here("grouped_query_attention", grouped_query_attention)

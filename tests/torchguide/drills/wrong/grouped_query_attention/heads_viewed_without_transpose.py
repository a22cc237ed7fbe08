# expect: for x (2, 4, 8), 4 query heads sharing 4 key/value heads of width 2 (torch.float32, causal, seed 1) your output differs at
# The mistake: (B, L, H*E) viewed straight as (B, H, L, E); the heads then hold pieces of several tokens.
import math

import torch


def grouped_query_attention(x, w_q, w_k, w_v, w_o, num_heads, num_kv_heads, causal):
    batch, length, _ = x.shape
    width = w_q.shape[0] // num_heads
    q = (x @ w_q.T).reshape(batch, num_heads, length, width)
    k = (x @ w_k.T).reshape(batch, num_kv_heads, length, width)
    v = (x @ w_v.T).reshape(batch, num_kv_heads, length, width)
    group = num_heads // num_kv_heads
    k, v = k.repeat_interleave(group, 1), v.repeat_interleave(group, 1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(width)
    if causal:
        scores = scores.masked_fill(~torch.ones(length, length, dtype=torch.bool).tril(), float("-inf"))
    return (scores.softmax(-1) @ v).reshape(batch, length, -1) @ w_o.T

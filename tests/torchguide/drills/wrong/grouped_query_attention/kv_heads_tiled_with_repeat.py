# expect: for x (2, 5, 6), 4 query heads sharing 2 key/value heads of width 3 (torch.float32, causal, seed 2) your output differs at
# The mistake: k.repeat(1, group, 1, 1) tiles the key/value heads [k0, k1, k0, k1]: query head h gets h % num_kv_heads.
import math

import torch


def grouped_query_attention(x, w_q, w_k, w_v, w_o, num_heads, num_kv_heads, causal):
    batch, length, _ = x.shape
    width = w_q.shape[0] // num_heads
    q = (x @ w_q.T).view(batch, length, num_heads, width).transpose(1, 2)
    k = (x @ w_k.T).view(batch, length, num_kv_heads, width).transpose(1, 2)
    v = (x @ w_v.T).view(batch, length, num_kv_heads, width).transpose(1, 2)
    group = num_heads // num_kv_heads
    k, v = k.repeat(1, group, 1, 1), v.repeat(1, group, 1, 1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(width)
    if causal:
        scores = scores.masked_fill(~torch.ones(length, length, dtype=torch.bool).tril(), float("-inf"))
    return (scores.softmax(-1) @ v).transpose(1, 2).reshape(batch, length, -1) @ w_o.T

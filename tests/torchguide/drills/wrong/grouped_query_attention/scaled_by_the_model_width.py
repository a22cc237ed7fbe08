# expect: for x (2, 4, 8), 4 query heads sharing 4 key/value heads of width 2 (torch.float32, causal, seed 1) your output differs at
# The mistake: the scores scaled by the model's width D; each head's scores are q.k over E features.
import math

import torch


def grouped_query_attention(x, w_q, w_k, w_v, w_o, num_heads, num_kv_heads, causal):
    batch, length, model_width = x.shape
    width = w_q.shape[0] // num_heads
    q = (x @ w_q.T).view(batch, length, num_heads, width).transpose(1, 2)
    k = (x @ w_k.T).view(batch, length, num_kv_heads, width).transpose(1, 2)
    v = (x @ w_v.T).view(batch, length, num_kv_heads, width).transpose(1, 2)
    group = num_heads // num_kv_heads
    k, v = k.repeat_interleave(group, 1), v.repeat_interleave(group, 1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(model_width)
    if causal:
        scores = scores.masked_fill(~torch.ones(length, length, dtype=torch.bool).tril(), float("-inf"))
    return (scores.softmax(-1) @ v).transpose(1, 2).reshape(batch, length, -1) @ w_o.T

# expect: for x (1, 3, 4), 1 query head sharing 1 key/value head of width 4 (torch.float32, no mask, seed 0) no gradient reaches x through your output; expected one
# The mistake: the projections computed under no_grad, as for inference: no gradient reaches the weights.
import math

import torch


def grouped_query_attention(x, w_q, w_k, w_v, w_o, num_heads, num_kv_heads, causal):
    batch, length, _ = x.shape
    width = w_q.shape[0] // num_heads
    with torch.no_grad():
        q = (x @ w_q.T).view(batch, length, num_heads, width).transpose(1, 2)
        k = (x @ w_k.T).view(batch, length, num_kv_heads, width).transpose(1, 2)
        v = (x @ w_v.T).view(batch, length, num_kv_heads, width).transpose(1, 2)
    group = num_heads // num_kv_heads
    k, v = k.repeat_interleave(group, 1), v.repeat_interleave(group, 1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(width)
    if causal:
        scores = scores.masked_fill(~torch.ones(length, length, dtype=torch.bool).tril(), float("-inf"))
    return (scores.softmax(-1) @ v).transpose(1, 2).reshape(batch, length, -1) @ w_o.T

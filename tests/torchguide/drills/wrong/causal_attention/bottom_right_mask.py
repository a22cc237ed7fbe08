# expect: for q (2, 3, 4), k (2, 5, 4), v (2, 5, 4) (torch.float32, causal) your output differs at
# The mistake: the mask aligned to the last key (what decoding with a cache wants); is_causal aligns it to the first.
import math

import torch


def attention(q, k, v, causal):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if causal:
        queries, keys = q.shape[-2], k.shape[-2]
        seen = torch.ones(queries, keys, dtype=torch.bool).tril(diagonal=keys - queries)
        scores = scores.masked_fill(~seen, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v

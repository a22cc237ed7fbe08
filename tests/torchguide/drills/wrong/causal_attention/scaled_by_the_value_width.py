# expect: for q (2, 3, 3, 4), k (2, 3, 3, 4), v (2, 3, 3, 6) (torch.float32, causal) your output differs at
# The mistake: the scale taken from the values' width; the scores are q.k, scaled by q's width E.
import math

import torch


def attention(q, k, v, causal):
    scores = q @ k.transpose(-2, -1) / math.sqrt(v.shape[-1])
    if causal:
        seen = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool).tril()
        scores = scores.masked_fill(~seen, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v

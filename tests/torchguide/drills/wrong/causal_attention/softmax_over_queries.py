# expect: for q (3, 2), k (3, 2), v (3, 2) (torch.float32, no mask) your output is
# The mistake: the softmax over dim=-2, the queries; each query's weights over the keys must sum to 1.
import math

import torch


def attention(q, k, v, causal):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if causal:
        seen = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool).tril()
        scores = scores.masked_fill(~seen, float("-inf"))
    return torch.softmax(scores, dim=-2) @ v

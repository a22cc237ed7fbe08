# expect: for q (2, 3, 4), k (2, 5, 4), v (2, 5, 4) (torch.float32, causal) your attention raised RuntimeError
# The mistake: the causal mask built from the query length alone, square; it fits only when L == S.
import math

import torch


def attention(q, k, v, causal):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if causal:
        length = q.shape[-2]
        seen = torch.tril(torch.ones(length, length, dtype=torch.bool))
        scores = scores.masked_fill(~seen, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v

# expect: for q and k (1, 1, 3, 2), v (1, 1, 3, 2), decoded from a prompt of 0 (torch.float32, seed 0) your decode_step raised RuntimeError
# The mistake: torch.cat without dim=-2 appends along the batch, dimension 0, not the tokens.
import math

import torch


def decode_step(q, k_new, v_new, cache_k, cache_v):
    cache_k = torch.cat([cache_k, k_new])
    cache_v = torch.cat([cache_v, v_new])
    scores = q @ cache_k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return scores.softmax(dim=-1) @ cache_v, cache_k, cache_v

import math

import torch
from torchguide.drills import check_here


def decode_step(q, k_new, v_new, cache_k, cache_v):
    """The new token's attention over the cache, and the cache grown by it."""
    cache_k = torch.cat(
        [cache_k, k_new], dim=-2
    )  # append first: it sees itself
    cache_v = torch.cat([cache_v, v_new], dim=-2)
    # One query, every key in its past: no mask.
    scores = q @ cache_k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return scores.softmax(dim=-1) @ cache_v, cache_k, cache_v


check_here("kv_cache_decode_step", decode_step)

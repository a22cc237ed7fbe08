# expect: for q and k (1, 1, 3, 2), v (1, 1, 3, 2), decoded from a prompt of 0 (torch.float32, seed 0) your output for token 0 (full causal attention's row 0) is [[[[0.0, 0.0]]]]; expected [[[[-0.8567, 1.1006]]]]
# The mistake: attention over the cache before the new key and value join it: the token never sees itself.
import math

import torch


def decode_step(q, k_new, v_new, cache_k, cache_v):
    scores = q @ cache_k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    output = scores.softmax(dim=-1) @ cache_v
    return output, torch.cat([cache_k, k_new], dim=-2), torch.cat([cache_v, v_new], dim=-2)

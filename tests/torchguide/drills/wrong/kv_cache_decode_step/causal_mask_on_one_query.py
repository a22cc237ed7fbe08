# expect: for q and k (1, 1, 3, 2), v (1, 1, 3, 2), decoded from a prompt of 0 (torch.float32, seed 0) your output for token 1 (full causal attention's row 1) is [[[[-0.8567, 1.1006]]]]; expected [[[[-1.0227, 0.3438]]]]
# The mistake: is_causal=True on one query and T + 1 keys: SDPA aligns the mask to the first key, so the query sees key 0 alone.
import torch
import torch.nn.functional as F


def decode_step(q, k_new, v_new, cache_k, cache_v):
    cache_k = torch.cat([cache_k, k_new], dim=-2)
    cache_v = torch.cat([cache_v, v_new], dim=-2)
    return F.scaled_dot_product_attention(q, cache_k, cache_v, is_causal=True), cache_k, cache_v

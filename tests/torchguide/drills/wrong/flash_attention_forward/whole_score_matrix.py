# expect: for q (1, 1, 6, 2), k (1, 1, 6, 2), v (1, 1, 6, 2), blocks of 2 keys (no mask, torch.float32, seed 0) your attention made a tensor of 36 elements
# The mistake: the plain softmax over all the scores at once, the L x L matrix.
import torch


def flash_attention(q, k, v, causal, block):
    s = q @ k.transpose(-2, -1) * q.shape[-1] ** -0.5
    if causal:
        s = s.masked_fill(torch.ones_like(s, dtype=torch.bool).triu(1), float("-inf"))
    return s.softmax(dim=-1) @ v

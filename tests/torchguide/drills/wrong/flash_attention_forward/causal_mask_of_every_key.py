# expect: for q (1, 2, 9, 2), k (1, 2, 9, 2), v (1, 2, 9, 3), blocks of 4 keys (causal, torch.float32, seed 2) your attention made a tensor of 81 elements
# The mistake: the tiles are right, but the causal mask is built for all L x L pairs.
import torch


def flash_attention(q, k, v, causal, block):
    lq, lk = q.shape[-2], k.shape[-2]
    future = torch.ones(lq, lk, dtype=torch.bool).triu(1)
    m = q.new_full((*q.shape[:-1], 1), float("-inf"))
    total = q.new_zeros((*q.shape[:-1], 1))
    acc = q.new_zeros((*q.shape[:-1], v.shape[-1]))
    for j in range(0, lk, block):
        s = q @ k[..., j : j + block, :].transpose(-2, -1) * q.shape[-1] ** -0.5
        if causal:
            s = s.masked_fill(future[:, j : j + block], float("-inf"))
        m_new = torch.maximum(m, s.amax(dim=-1, keepdim=True))
        p = torch.exp(s - m_new)
        rescale = torch.exp(m - m_new)
        total = total * rescale + p.sum(dim=-1, keepdim=True)
        acc = acc * rescale + p @ v[..., j : j + block, :]
        m = m_new
    return acc / total

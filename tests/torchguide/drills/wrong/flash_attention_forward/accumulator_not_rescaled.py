# expect: for q (1, 1, 6, 2), k (1, 1, 6, 2), v (1, 1, 6, 2), blocks of 2 keys (no mask, torch.float32, seed 0) your output
# The mistake: the sum is rescaled when the maximum grows, the output is not.
import torch


def flash_attention(q, k, v, causal, block):
    lq, lk = q.shape[-2], k.shape[-2]
    m = q.new_full((*q.shape[:-1], 1), float("-inf"))
    total = q.new_zeros((*q.shape[:-1], 1))
    acc = q.new_zeros((*q.shape[:-1], v.shape[-1]))
    rows = torch.arange(lq)[:, None]
    for j in range(0, lk, block):
        s = q @ k[..., j : j + block, :].transpose(-2, -1) * q.shape[-1] ** -0.5
        if causal:
            cols = torch.arange(j, min(j + block, lk))[None, :]
            s = s.masked_fill(cols > rows, float("-inf"))
        m_new = torch.maximum(m, s.amax(dim=-1, keepdim=True))
        p = torch.exp(s - m_new)
        total = total * torch.exp(m - m_new) + p.sum(dim=-1, keepdim=True)
        acc = acc + p @ v[..., j : j + block, :]
        m = m_new
    return acc / total

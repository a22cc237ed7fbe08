import torch
from torchguide.drills import check_here


def flash_attention(q, k, v, causal, block):
    """Softmax attention over key blocks, with a running max and sum."""
    lq, lk = q.shape[-2], k.shape[-2]
    m = q.new_full((*q.shape[:-1], 1), float("-inf"))  # running max
    total = q.new_zeros((*q.shape[:-1], 1))  # running sum of exp
    acc = q.new_zeros((*q.shape[:-1], v.shape[-1]))
    rows = torch.arange(lq)[:, None]
    for j in range(0, lk, block):
        s = q @ k[..., j : j + block, :].transpose(-2, -1) * q.shape[-1] ** -0.5
        if causal:  # a (Lq, block) mask: one tile, never (Lq, Lk)
            cols = torch.arange(j, min(j + block, lk))[None, :]
            s = s.masked_fill(cols > rows, float("-inf"))
        m_new = torch.maximum(m, s.amax(dim=-1, keepdim=True))
        p = torch.exp(s - m_new)
        rescale = torch.exp(m - m_new)  # earlier blocks, to the new max
        total = total * rescale + p.sum(dim=-1, keepdim=True)
        acc = acc * rescale + p @ v[..., j : j + block, :]
        m = m_new
    return acc / total


check_here("flash_attention_forward", flash_attention)

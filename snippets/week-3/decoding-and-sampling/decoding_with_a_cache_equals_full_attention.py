import math

import torch
import torch.nn.functional as F

B, H, L, E = 1, 2, 6, 8
q, k, v = (torch.randn(B, H, L, E) for _ in range(3))
full = F.scaled_dot_product_attention(q, k, v, is_causal=True)
# --8<-- [start:gist]
cache_k, cache_v = k[..., :0, :], v[..., :0, :]  # empty: (B, H, 0, E)
for t in range(L):  # one token a step, as generation runs
    cache_k = torch.cat([cache_k, k[..., t : t + 1, :]], dim=-2)
    cache_v = torch.cat([cache_v, v[..., t : t + 1, :]], dim=-2)
    scores = q[..., t : t + 1, :] @ cache_k.transpose(-2, -1) / math.sqrt(E)
    out = scores.softmax(dim=-1) @ cache_v  # one query: no mask needed
    assert torch.allclose(out, full[..., t : t + 1, :], atol=1e-6)
# --8<-- [end:gist]
print(f"{L} steps with a cache == full causal attention, row by row: True")

import math

import torch
import torch.nn.functional as F

L, E = 3, 4
q, k, v = (torch.randn(1, 1, L, E) for _ in range(3))
real = torch.tensor([False, True, True])  # left-padded: one pad token first
mask = torch.ones(L, L, dtype=torch.bool).tril() & real  # the pad's row: no key
# --8<-- [start:gist]
fused = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
scores = (q @ k.transpose(-2, -1) / math.sqrt(E)).masked_fill(~mask, -math.inf)
by_hand = scores.softmax(dim=-1) @ v  # softmax of a row of -inf: 0 / 0
# --8<-- [end:gist]
assert (fused[0, 0, 0] == 0).all() and by_hand[0, 0, 0].isnan().all()
assert torch.allclose(fused[0, 0, 1:], by_hand[0, 0, 1:], atol=1e-6)
print("pad query, SDPA:   ", fused[0, 0, 0].tolist())
print("pad query, by hand:", by_hand[0, 0, 0].tolist())
print("real queries agree:", True)

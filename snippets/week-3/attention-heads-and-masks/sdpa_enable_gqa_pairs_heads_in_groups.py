import torch
import torch.nn.functional as F

B, L, E = 2, 5, 8
q = torch.randn(B, 8, L, E)  # 8 query heads
k, v = torch.randn(B, 2, L, E), torch.randn(B, 2, L, E)  # 2 key/value heads
group = q.shape[1] // k.shape[1]  # 4 query heads per key/value head

out = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
# query head h reads key/value head h // group: [k0, k0, k0, k0, k1, ...]
grouped = F.scaled_dot_product_attention(
    q,
    k.repeat_interleave(group, 1),
    v.repeat_interleave(group, 1),
    is_causal=True,
)
tiled = F.scaled_dot_product_attention(  # [k0, k1, k0, k1, ...]
    q, k.repeat(1, group, 1, 1), v.repeat(1, group, 1, 1), is_causal=True
)
assert torch.allclose(out, grouped, atol=1e-6)
assert not torch.allclose(out, tiled, atol=1e-3)
print("enable_gqa == repeat_interleave of k and v:", True)
print("enable_gqa == repeat (tiled heads):        ", False)

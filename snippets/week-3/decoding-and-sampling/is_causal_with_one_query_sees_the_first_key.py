import torch
import torch.nn.functional as F

q = torch.randn(1, 1, 1, 4)  # the new token's query
k, v = torch.randn(1, 1, 5, 4), torch.randn(1, 1, 5, 4)  # cache: 5 keys
# --8<-- [start:gist]
masked = F.scaled_dot_product_attention(q, k, v, is_causal=True)
unmasked = F.scaled_dot_product_attention(q, k, v)
# --8<-- [end:gist]
assert torch.allclose(masked, v[..., :1, :])  # the top-left mask: key 0 only
assert not torch.allclose(masked, unmasked)
print("is_causal=True, 1 query, 5 keys -> the value of key 0:", True)

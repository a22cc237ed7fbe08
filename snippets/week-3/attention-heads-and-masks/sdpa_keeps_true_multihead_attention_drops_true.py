import torch
import torch.nn.functional as F
from torch import nn

D, L = 8, 4
x = torch.randn(2, L, D)
real = torch.tensor([[True, True, True, False], [True, True, False, False]])
mha = nn.MultiheadAttention(D, num_heads=1, batch_first=True)
# --8<-- [start:gist]
# nn.MultiheadAttention: True in key_padding_mask means "ignore this key"
theirs, _ = mha(x, x, x, key_padding_mask=~real)
# SDPA: True in a boolean attn_mask means "attend to this key"
q, k, v = F.linear(x, mha.in_proj_weight, mha.in_proj_bias).chunk(3, dim=-1)
ours = F.scaled_dot_product_attention(q, k, v, attn_mask=real[:, None, :])
ours = mha.out_proj(ours)
# --8<-- [end:gist]
assert torch.allclose(theirs, ours, atol=1e-6)
print("SDPA attn_mask=real == MultiheadAttention key_padding_mask=~real:", True)

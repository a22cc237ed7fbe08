import torch
import torch.nn.functional as F

lengths, L, E = torch.tensor([4, 2]), 4, 8
q, k, v = (torch.randn(2, 1, L, E) for _ in range(3))  # padded on the right
# --8<-- [start:gist]
real = torch.arange(L) < lengths[:, None]  # which keys are tokens, (B, L)
causal = torch.ones(L, L, dtype=torch.bool).tril()  # key j <= query i
mask = causal & real[:, None, None, :]  # (B, 1, L, L): padding masks keys
padded = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
# --8<-- [end:gist]
for b, n in enumerate(lengths.tolist()):
    alone = F.scaled_dot_product_attention(
        q[b, :, :n], k[b, :, :n], v[b, :, :n], is_causal=True
    )
    assert torch.allclose(padded[b, :, :n], alone, atol=1e-6)
    print(f"sequence {b}: its {n} tokens as if unpadded")

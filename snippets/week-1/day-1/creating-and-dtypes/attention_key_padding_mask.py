import torch
from torch import nn

attn = nn.MultiheadAttention(embed_dim=4, num_heads=1, batch_first=True)
x = torch.randn(1, 3, 4)  # one sequence: 2 real tokens + 1 pad
pad = torch.tensor([[False, False, True]])  # True = IGNORE this key

out1, w1 = attn(x, x, x, key_padding_mask=pad)
x2 = x.clone()
x2[0, 2] = 100.0  # change only the padded position
out2, _ = attn(x2, x2, x2, key_padding_mask=pad)

# Real positions do not see the pad at all
assert torch.allclose(out1[0, :2], out2[0, :2])
assert (w1[0, :, 2] == 0).all()
print("attention weights (rows: queries, last column: the pad):")
print(w1[0].detach().round(decimals=3))
print("real outputs unchanged when the pad changes:",
      torch.allclose(out1[0, :2], out2[0, :2]))

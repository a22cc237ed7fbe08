# docexec: raises=RuntimeError match="must match the size"
import torch
import torch.nn.functional as F

q = torch.randn(1, 8, 5, 16)
k = v = torch.randn(1, 2, 5, 16)  # fewer key/value heads than query heads
F.scaled_dot_product_attention(q, k, v)  # without enable_gqa=True

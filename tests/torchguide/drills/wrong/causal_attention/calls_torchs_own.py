# expect: your attention calls torch.scaled_dot_product_attention; the drill asks you to write attention from its matrix products and softmax
# The mistake: the fused function itself, which is what the drill asks to write.
import torch.nn.functional as F


def attention(q, k, v, causal):
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)

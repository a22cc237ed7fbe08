# expect: your attention calls torch._ops.aten._scaled_dot_product_attention_math; the drill asks you to write attention from its matrix products and softmax
# The mistake: the fused function under its ATen name, which is still the function to write.
import torch


def attention(q, k, v, causal):
    return torch.ops.aten._scaled_dot_product_attention_math(q, k, v, is_causal=causal)[0]

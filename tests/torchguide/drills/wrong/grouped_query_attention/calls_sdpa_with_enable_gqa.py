# expect: your grouped_query_attention calls torch.scaled_dot_product_attention; the drill asks you to write the heads' attention from its matrix products and softmax
# The mistake: SDPA's own grouped-query mode, which is the reference the drill asks to write.
import torch.nn.functional as F


def grouped_query_attention(x, w_q, w_k, w_v, w_o, num_heads, num_kv_heads, causal):
    batch, length, _ = x.shape
    q = F.linear(x, w_q).unflatten(-1, (num_heads, -1)).transpose(1, 2)
    k = F.linear(x, w_k).unflatten(-1, (num_kv_heads, -1)).transpose(1, 2)
    v = F.linear(x, w_v).unflatten(-1, (num_kv_heads, -1)).transpose(1, 2)
    out = F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
    return F.linear(out.transpose(1, 2).flatten(2), w_o)

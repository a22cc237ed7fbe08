import torch
from torchguide.drills import check_here


def padding_causal_mask(lengths: torch.Tensor, max_len: int, left_padded: bool):
    """SDPA's boolean attn_mask: True where query i may attend to key j."""
    positions = torch.arange(max_len)
    if left_padded:  # the real tokens are the last `length` positions
        real = positions >= (max_len - lengths)[:, None]
    else:
        real = positions < lengths[:, None]  # (B, max_len): keys that are real
    causal = torch.ones(max_len, max_len, dtype=torch.bool).tril()  # j <= i
    return causal & real[:, None, None, :]  # padding masks keys, the columns


check_here("padding_causal_mask", padding_causal_mask)

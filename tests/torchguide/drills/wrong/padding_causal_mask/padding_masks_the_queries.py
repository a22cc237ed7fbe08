# expect: for lengths [3, 1] padded on the right to 3 your mask differs at
# The mistake: the padding mask put on the rows (queries) instead of the columns (keys): real queries still see padding.
import torch


def padding_causal_mask(lengths, max_len, left_padded):
    positions = torch.arange(max_len)
    real = positions >= (max_len - lengths)[:, None] if left_padded else positions < lengths[:, None]
    causal = torch.ones(max_len, max_len, dtype=torch.bool).tril()
    return causal & real[:, None, :, None]

# expect: for lengths [3] padded on the right to 3 your mask has shape (1, 3, 3); expected (1, 1, 3, 3), with a head dimension of 1 that broadcasts over the heads
# The mistake: a (B, L, L) mask; against scores of shape (B, H, L, L) it broadcasts the batch over the heads.
import torch


def padding_causal_mask(lengths, max_len, left_padded):
    positions = torch.arange(max_len)
    real = positions >= (max_len - lengths)[:, None] if left_padded else positions < lengths[:, None]
    causal = torch.ones(max_len, max_len, dtype=torch.bool).tril()
    return causal & real[:, None, :]

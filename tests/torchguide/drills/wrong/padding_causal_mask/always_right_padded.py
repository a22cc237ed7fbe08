# expect: for lengths [3, 1] padded on the left to 3 your mask differs at
# The mistake: the padding taken to be on the right whatever the batch says; a left-padded prompt's tokens are the last ones.
import torch


def padding_causal_mask(lengths, max_len, left_padded):
    real = torch.arange(max_len) < lengths[:, None]
    causal = torch.ones(max_len, max_len, dtype=torch.bool).tril()
    return causal & real[:, None, None, :]

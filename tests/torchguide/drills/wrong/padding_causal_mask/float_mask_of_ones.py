# expect: for lengths [3] padded on the right to 3 your mask has dtype torch.float32; expected torch.bool
# The mistake: a 0/1 float mask; SDPA adds a float mask to the scores, so it masks nothing.
import torch


def padding_causal_mask(lengths, max_len, left_padded):
    positions = torch.arange(max_len)
    if left_padded:
        real = (positions >= (max_len - lengths)[:, None]).float()
    else:
        real = (positions < lengths[:, None]).float()
    causal = torch.ones(max_len, max_len).tril()
    return causal * real[:, None, None, :]

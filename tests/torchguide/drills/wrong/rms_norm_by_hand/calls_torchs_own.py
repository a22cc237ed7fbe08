# expect: your rms_norm calls torch.nn.functional.rms_norm; the drill asks you to write the normalization from its mean square
# The mistake: the function the drill asks to write.
import torch.nn.functional as F


def rms_norm(x, weight, eps):
    return F.rms_norm(x, x.shape[-1:], weight, eps)

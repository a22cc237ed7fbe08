# expect: your gradient for x differs
# The mistake: the factor computed from a detached norm: right values, wrong gradient.
import torch


def clip_to_norm(x, max_norm):
    factor = torch.clamp(max_norm / x.detach().norm(), max=1.0)
    return x * factor

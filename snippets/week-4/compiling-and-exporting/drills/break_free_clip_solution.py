import torch
from torchguide.drills import check_here


def clip_to_norm(x, max_norm):
    factor = torch.clamp(max_norm / x.norm(), max=1.0)  # 1 under the bound
    return x * factor  # no Python branch on a tensor's value


check_here("break_free_clip", clip_to_norm)

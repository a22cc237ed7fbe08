# expect: for w (3, 4), channels along axis 0 (torch.float32, seed 0) your scale is
# The mistake: one scale for the whole tensor, repeated per channel.
import torch


def quantize(w, axis):
    scale = (w.abs().amax() / 127).expand(w.shape[axis]).clone()
    shape = [1] * w.dim()
    shape[axis] = -1
    q = torch.round(w / scale.view(shape)).clamp(-127, 127).to(torch.int8)
    return q, scale

# expect: groups 3 (torch.float32, seed 5) your output differs at 180 of 180 elements
# The mistake: the unfolded rows split into groups as if the kernel positions came first.
import torch
import torch.nn.functional as F


def conv2d(x, weight, bias, stride, padding, dilation, groups):
    n, c, h, w = x.shape
    o, _, kh, kw = weight.shape
    h_out = (h + 2 * padding[0] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    w_out = (w + 2 * padding[1] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    cols = F.unfold(x, (kh, kw), dilation, padding, stride)
    cols = cols.view(n, -1, groups, h_out * w_out).transpose(1, 2)
    kernels = weight.reshape(groups, o // groups, -1)
    y = torch.einsum("gok,ngkl->ngol", kernels, cols).reshape(n, o, h_out, w_out)
    return y if bias is None else y + bias[:, None, None]

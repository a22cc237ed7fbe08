# expect: groups 1 (torch.float32, seed 8, transposed weight) your output is
# The mistake: a convolution as the textbook defines it, kernel flipped; torch's is a correlation.
import torch
import torch.nn.functional as F


def conv2d(x, weight, bias, stride, padding, dilation, groups):
    n, c, h, w = x.shape
    o, _, kh, kw = weight.shape
    h_out = (h + 2 * padding[0] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    w_out = (w + 2 * padding[1] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    cols = F.unfold(x, (kh, kw), dilation, padding, stride).view(n, groups, -1, h_out * w_out)
    kernels = weight.flip(-2, -1).reshape(groups, o // groups, -1)
    y = torch.einsum("gok,ngkl->ngol", kernels, cols).reshape(n, o, h_out, w_out)
    return y if bias is None else y + bias[:, None, None]

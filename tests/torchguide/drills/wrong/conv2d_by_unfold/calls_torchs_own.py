# expect: your conv2d calls torch.conv2d; the drill asks you to build the convolution from unfold
# The mistake: the function the drill asks to write.
import torch.nn.functional as F


def conv2d(x, weight, bias, stride, padding, dilation, groups):
    return F.conv2d(x, weight, bias, stride, padding, dilation, groups)

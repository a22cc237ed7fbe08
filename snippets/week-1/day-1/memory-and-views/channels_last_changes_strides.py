import torch
from torchguide.layout import describe_layout, shares_storage

N, C, H, W = 2, 3, 4, 5
# --8<-- [start:gist]
x = torch.randn(N, C, H, W)
y = x.to(memory_format=torch.channels_last)

# same logical shape and values; only the order in memory changes
assert y.shape == x.shape == (N, C, H, W) and torch.equal(x, y)
assert x.stride() == (C * H * W, H * W, W, 1)  # NCHW: W innermost
assert y.stride() == (H * W * C, 1, W * C, C)  # NHWC: C innermost
assert y.is_contiguous(memory_format=torch.channels_last)
assert not y.is_contiguous()  # not row-major contiguous any more
assert not shares_storage(x, y)  # the conversion is a copy
# --8<-- [end:gist]

# the 3 channel values of pixel (0, :, 0, 0) are now neighbours in memory
flat = y.permute(0, 2, 3, 1).flatten()  # NHWC order is a free view here
assert shares_storage(y, flat)
assert torch.equal(flat[:C], x[0, :, 0, 0])

# a conv whose weight is channels_last keeps the format for its output
conv = torch.nn.Conv2d(C, 8, 3).to(memory_format=torch.channels_last)
assert conv.weight.is_contiguous(memory_format=torch.channels_last)  # 4-D
# --8<-- [start:gist]
out = conv(y)
assert out.is_contiguous(memory_format=torch.channels_last)
# --8<-- [end:gist]
assert torch.equal(y[:, 1], x[:, 1])  # indexing by channel is unchanged

print("NCHW :", describe_layout(x))
print("NHWC :", describe_layout(y))
print("conv output channels_last:",
      out.is_contiguous(memory_format=torch.channels_last))

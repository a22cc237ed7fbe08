# docexec: cuda
import re

import torch
from torchguide.timing import kernel_names, measure, speedup

torch.backends.cudnn.benchmark = True  # let cuDNN pick its fastest kernels

# a ResNet-style 3x3 layer in float16 (the Tensor Core data type)
conv = torch.nn.Conv2d(64, 64, 3, padding=1, bias=False)
conv = conv.to("cuda", torch.float16)
x = torch.randn(64, 64, 56, 56, device="cuda", dtype=torch.float16)

conv_cl = torch.nn.Conv2d(64, 64, 3, padding=1, bias=False)
conv_cl.load_state_dict(conv.state_dict())
# --8<-- [start:gist]
conv_cl = conv_cl.to("cuda", torch.float16,
                     memory_format=torch.channels_last)
x_cl = x.to(memory_format=torch.channels_last)
# --8<-- [end:gist]

# Layout conversions cuDNN runs around an NHWC kernel given NCHW data
LAYOUT_CHANGE = r"(?i)nchwToNhwc|nhwcToNchw|transpose"
with torch.no_grad():
    y, y_cl = conv(x), conv_cl(x_cl)
    torch.testing.assert_close(y, y_cl, rtol=1e-2, atol=1e-2)
    assert y_cl.is_contiguous(memory_format=torch.channels_last)
    nchw_kernels = kernel_names(lambda: conv(x))
    nhwc_kernels = kernel_names(lambda: conv_cl(x_cl))
    t_nchw = measure(lambda: conv(x), min_run_time=0.5)
    t_nhwc = measure(lambda: conv_cl(x_cl), min_run_time=0.5)

# --8<-- [start:gist]
# NCHW input: cuDNN transposes to NHWC and back around its kernel
assert any(re.search(LAYOUT_CHANGE, k) for k in nchw_kernels)
assert not any(re.search(LAYOUT_CHANGE, k) for k in nhwc_kernels)
ratio = speedup(t_nchw, t_nhwc)
assert ratio > 1.0  # the conversions it saves are time saved
# --8<-- [end:gist]
print("GPU:", torch.cuda.get_device_name())
print("NCHW kernels:         ", *nchw_kernels, sep="\n    ")
print("channels_last kernels:", *nhwc_kernels, sep="\n    ")
print("channels_last vs NCHW speed-up (fp16 conv):", round(ratio, 1))

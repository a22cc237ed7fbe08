import torch
from torch import nn

NORMS = ["layer_norm", "group_norm", "rms_norm", "batch_norm", "instance_norm"]


def autocast_rule(op: str, device: str) -> bool:
    """Whether autocast registers a kernel of its own for op on this device
    (every op on one of its lists has one; the others fall through)."""
    key = {"cuda": "AutocastCUDA", "cpu": "AutocastCPU"}[device]
    return torch._C._dispatch_has_kernel_for_dispatch_key(f"aten::{op}", key)


# --8<-- [start:gist]
on_cuda_lists = [op for op in NORMS if autocast_rule(op, "cuda")]
assert on_cuda_lists == ["layer_norm", "group_norm", "rms_norm"]
assert not any(autocast_rule(op, "cpu") for op in NORMS)
# --8<-- [end:gist]
print("CUDA autocast has a rule for:", ", ".join(on_cuda_lists))
print("no rule, the input's dtype:", ", ".join(
    op for op in NORMS if op not in on_cuda_lists))

# With no rule, BatchNorm runs in whatever dtype reaches it, while its
# weights and running statistics stay float32 (CPU autocast, bfloat16).
conv, bn = nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8)
x = torch.randn(4, 3, 16, 16)
# --8<-- [start:gist]
with torch.autocast("cpu", dtype=torch.bfloat16):
    after_conv = bn(conv(x))  # conv: bfloat16, so BatchNorm's input too
    alone = bn(x.repeat(1, 3, 1, 1)[:, :8])  # a float32 input
assert after_conv.dtype == torch.bfloat16 and alone.dtype == torch.float32
# --8<-- [end:gist]
assert bn.weight.dtype == bn.running_mean.dtype == torch.float32
print("BatchNorm2d after a conv:", after_conv.dtype, "| on a float32 input:",
      alone.dtype, "| its running_mean:", bn.running_mean.dtype)

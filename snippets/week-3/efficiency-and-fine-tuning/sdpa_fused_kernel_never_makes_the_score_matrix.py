import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.utils._python_dispatch import TorchDispatchMode


class Largest(TorchDispatchMode):
    """Records each op and the largest tensor any op returns."""

    def __init__(self):
        super().__init__()
        self.ops, self.largest = [], 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        self.ops.append(func.__name__)
        for t in out if isinstance(out, tuple) else (out,):
            if isinstance(t, torch.Tensor):
                self.largest = max(self.largest, t.numel())
        return out


q, k, v = torch.randn(3, 1, 8, 2048, 64).unbind(0)  # B=1, H=8, L=2048
scores = 8 * 2048 * 2048  # the L x L matrix, per head
# --8<-- [start:gist]
seen = {}
for backend in (SDPBackend.MATH, SDPBackend.FLASH_ATTENTION):
    with sdpa_kernel(backend), Largest() as mode:
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    seen[backend.name] = mode
assert seen["MATH"].largest >= scores  # math builds the scores
assert seen["FLASH_ATTENTION"].largest < scores // 16  # tiles only
# --8<-- [end:gist]
for name, mode in seen.items():
    fused = [op for op in mode.ops if "flash" in op]
    print(f"{name:16} largest tensor {mode.largest:>10,}", fused[:1])
print(f"{'L x L scores':16} {scores:>25,}")

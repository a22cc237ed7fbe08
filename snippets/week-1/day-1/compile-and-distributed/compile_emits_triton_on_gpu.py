# docexec: cuda timeout=120
import os
import re

import torch
from torch._inductor.utils import run_and_get_code

os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.abspath("inductor_cache")


def f(x):
    return (x.sin() * 2 + 1).relu()  # the same four ops as on the CPU


x = torch.randn(1 << 20, device="cuda")
out, (code,) = run_and_get_code(torch.compile(f), x)

torch.testing.assert_close(out, f(x))
kernels = sorted(set(re.findall(r"\btriton_\w*fused_\w+", code)))
assert len(kernels) == 1 and "add_mul_relu_sin" in kernels[0]  # one kernel
assert "@triton.jit" in code  # a Triton kernel, not C++
assert 'extern "C"' not in code
print("kernels generated for f on the GPU:", kernels)
print("Triton source:", "@triton.jit" in code)

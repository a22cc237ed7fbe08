# docexec: cuda timeout=120
import re

import torch
from torchguide.timing import (
    kernel_names,
    measure,
    speedup,
    tensor_core_kernels,
)

# What a Tensor Core GEMM kernel's name holds depends on the GPU generation:
# the instruction shape (884 Volta, 1688 Turing, 16816 Ampere) or the
# architecture prefix (sm90_, nvjet on a Hopper); tensor_core_kernels()
# gives the pattern for this GPU's compute capability.


def run(dtype, n):
    a = torch.randn(n, n, device="cuda").to(dtype)
    names = kernel_names(lambda: a @ a)  # the profiler's GPU kernel names
    assert names, f"{dtype}, {n}: no GPU kernel recorded"
    return names, measure(lambda: a @ a, min_run_time=0.3)


# --8<-- [start:gist]
cases = {(dtype, n): run(dtype, n)
         for n in (4096, 4095)  # 4095: not a multiple of 8
         for dtype in (torch.float32, torch.float16, torch.bfloat16)}
torch.set_float32_matmul_precision("high")  # allow TF32 for float32
cases["float32 + TF32", 4096] = run(torch.float32, 4096)
# --8<-- [end:gist]

major, minor = torch.cuda.get_device_capability()
generation, pattern = tensor_core_kernels((major, minor))
fp32_kernels, _ = cases[torch.float32, 4096]
assert cases[torch.float16, 4096][0] != fp32_kernels  # another kernel
# --8<-- [start:gist]
for n in (4096, 4095):  # a Tensor Core kernel, also at a size not 8k
    names = cases[torch.float16, n][0]
    assert any(re.search(pattern, name) for name in names), (
        f"{generation} (sm_{major}{minor}), float16 n={n}: no kernel "
        f"name matches {pattern!r}: {names}")
# --8<-- [end:gist]
print(f"GPU: {torch.cuda.get_device_name()} ({generation}, "
      f"sm_{major}{minor}); its Tensor Core kernels match {pattern!r}")
for (dtype, n), (names, seconds) in cases.items():
    gain = speedup(cases[torch.float32, n][1], seconds)
    if dtype is torch.float16:
        assert gain > 2, f"float16 only {gain:.1f}x faster at n={n}"
    print(f"{str(dtype).replace('torch.', '')}, n={n}: "
          f"{gain:.1f}x the speed of float32")
    for name in names:
        mark = "matches" if re.search(pattern, name) else "       "
        print(f"    kernel {mark} {name}")

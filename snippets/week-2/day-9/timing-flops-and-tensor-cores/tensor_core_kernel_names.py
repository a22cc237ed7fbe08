# docexec: cuda timeout=120
import re

import torch
from torch.autograd import DeviceType
from torch.profiler import ProfilerActivity, profile
from torchguide.timing import measure, speedup

torch.manual_seed(0)

# What a Tensor Core GEMM kernel's name holds, by GPU generation (compute
# capability): the instruction shape (884 Volta, 1688 Turing, 16816 Ampere)
# or the architecture prefix. A newer GPU also runs older generations'
# Tensor Core kernels (cuBLAS picks sm80_ kernels on a Hopper for some
# shapes), so each pattern includes those of the generations before it.
AMPERE = r"16816|1688|sm8\d_"
TENSOR_CORE_NAMES = {
    (7, 0): ("Volta", r"884"),
    (7, 5): ("Turing", r"1688"),
    (7, None): ("Volta or Turing", r"884|1688"),  # 7.2: Jetson Xavier
    (8, None): ("Ampere or Ada", AMPERE),
    (9, None): ("Hopper", r"sm90_|nvjet|" + AMPERE),
    (10, None): ("Blackwell", r"sm1\d\d_|sm90_|nvjet|" + AMPERE),
}


def gpu_kernels(a, b):
    """Names of the GPU kernels that one a @ b launches."""
    a @ b  # warm-up: cuBLAS picks its kernel on the first call
    torch.cuda.synchronize()
    activities = [ProfilerActivity.CPU, ProfilerActivity.CUDA]
    with profile(activities=activities) as prof:
        a @ b
        torch.cuda.synchronize()
    return sorted({e.name for e in prof.events()
                   if e.device_type == DeviceType.CUDA})


def run(dtype, n):
    a = torch.randn(n, n, device="cuda").to(dtype)
    names = gpu_kernels(a, a)
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
assert major >= 7, f"sm_{major}{minor}: Tensor Cores start with Volta (7.0)"
generation, pattern = (TENSOR_CORE_NAMES.get((major, minor))
                       or TENSOR_CORE_NAMES[min(major, 10), None])
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

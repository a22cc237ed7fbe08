# docexec: cuda timeout=120
import torch
from torch.autograd import DeviceType
from torch.profiler import ProfilerActivity, profile
from torchguide.timing import measure, speedup

torch.manual_seed(0)


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

# --8<-- [start:gist]
fp32_kernels, _ = cases[torch.float32, 4096]
assert cases[torch.float16, 4096][0] != fp32_kernels  # another kernel
# --8<-- [end:gist]
print("GPU:", torch.cuda.get_device_name())
# --8<-- [start:gist]
for (dtype, n), (names, seconds) in cases.items():
    gain = speedup(cases[torch.float32, n][1], seconds)
    if dtype is torch.float16:
        assert gain > 2, f"float16 only {gain:.1f}x faster at n={n}"
# --8<-- [end:gist]
    print(f"{str(dtype).replace('torch.', '')}, n={n}: "
          f"{gain:.1f}x the speed of float32")
    for name in names:
        print("    kernel:", name)

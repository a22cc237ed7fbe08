# docexec: cuda
import re

import torch
from torchguide.timing import (
    kernel_names,
    measure,
    speedup,
    tensor_core_kernels,
)

a = torch.randn(4096, 4096, device="cuda")
b = torch.randn(4096, 4096, device="cuda")
a16, b16 = a.half(), b.half()
abf, bbf = a.bfloat16(), b.bfloat16()

# The mechanism: the profiler names the kernel each matmul ran.
capability = torch.cuda.get_device_capability()
generation, tensor_core = tensor_core_kernels(capability)
# --8<-- [start:gist]
fp32_kernels = kernel_names(lambda: a @ b)
fp16_kernels = kernel_names(lambda: a16 @ b16)
assert any(re.search(tensor_core, name) for name in fp16_kernels)
assert fp16_kernels != fp32_kernels
# --8<-- [end:gist]

# measure() uses torch.utils.benchmark.Timer, which synchronizes the GPU, so
# each median covers the finished kernel, not just its launch.
t32 = measure(lambda: a @ b, min_run_time=0.5)
t16 = measure(lambda: a16 @ b16, min_run_time=0.5)
tbf = measure(lambda: abf @ bbf, min_run_time=0.5)
# --8<-- [start:gist]
assert speedup(t32, t16) > 1.5  # generous: the gain depends on the GPU
# --8<-- [end:gist]
print("GPU:", torch.cuda.get_device_name(), f"({generation})")
print("float32 matmul precision setting:", torch.get_float32_matmul_precision())
print("float32 kernel:", ", ".join(fp32_kernels))
print("float16 kernel:", ", ".join(fp16_kernels), "(a Tensor Core kernel)")
print("float16 vs float32 speed-up :", round(speedup(t32, t16), 1))
print("bfloat16 vs float32 speed-up:", round(speedup(t32, tbf), 1))

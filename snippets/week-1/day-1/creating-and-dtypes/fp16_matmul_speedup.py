# docexec: cuda
import torch
from torchguide.timing import measure, speedup

torch.manual_seed(0)
a = torch.randn(4096, 4096, device="cuda")
b = torch.randn(4096, 4096, device="cuda")
a16, b16 = a.half(), b.half()
abf, bbf = a.bfloat16(), b.bfloat16()

# measure() uses torch.utils.benchmark.Timer, which synchronizes the GPU, so
# each median covers the finished kernel, not just its launch.
t32 = measure(lambda: a @ b, min_run_time=0.5)
t16 = measure(lambda: a16 @ b16, min_run_time=0.5)
tbf = measure(lambda: abf @ bbf, min_run_time=0.5)
assert speedup(t32, t16) > 1.5  # Tensor Cores; generous margin
print("GPU:", torch.cuda.get_device_name())
print("float32 matmul precision setting:", torch.get_float32_matmul_precision())
print("float16 vs float32 speed-up :", round(speedup(t32, t16), 1))
print("bfloat16 vs float32 speed-up:", round(speedup(t32, tbf), 1))

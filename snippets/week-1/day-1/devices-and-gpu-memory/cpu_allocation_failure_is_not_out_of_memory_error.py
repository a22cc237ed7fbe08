import torch

# torch.OutOfMemoryError (alias torch.cuda.OutOfMemoryError) is what an
# accelerator's caching allocator raises; it is a RuntimeError subclass
assert torch.cuda.OutOfMemoryError is torch.OutOfMemoryError
assert issubclass(torch.OutOfMemoryError, RuntimeError)

# 1 EiB: beyond any machine's memory and address space
try:
    torch.empty(2**60, dtype=torch.uint8)
except RuntimeError as e:
    error = e

# the CPU allocator raises a plain RuntimeError: an
# `except torch.OutOfMemoryError` handler does not catch it
assert type(error) is RuntimeError
assert not isinstance(error, torch.OutOfMemoryError)
reason = "DefaultCPUAllocator: can't allocate memory"
assert reason in str(error)
print("CPU allocation failure:", type(error).__name__, "|",
      "an OutOfMemoryError:", isinstance(error, torch.OutOfMemoryError))
print("its message says:", reason)

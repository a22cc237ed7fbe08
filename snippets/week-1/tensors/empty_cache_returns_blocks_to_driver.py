# docexec: cuda
import torch

MiB = 2**20
dev = torch.device("cuda")
torch.cuda.empty_cache()
base_alloc = torch.cuda.memory_allocated(dev)
base_reserved = torch.cuda.memory_reserved(dev)


def report(label):
    alloc = (torch.cuda.memory_allocated(dev) - base_alloc) // MiB
    reserved = (torch.cuda.memory_reserved(dev) - base_reserved) // MiB
    print(f"{label:<20} allocated +{alloc:>4} MiB  "
          f"reserved +{reserved:>4} MiB")
    return alloc, reserved


x = torch.empty(256 * MiB, dtype=torch.uint8, device=dev)
a1, r1 = report("x = 256 MiB tensor")
del x
a2, r2 = report("del x")
torch.cuda.empty_cache()
a3, r3 = report("empty_cache()")

assert a1 == 256 and r1 >= 256
assert a2 == 0 and r2 == r1  # freed by PyTorch, still cached for reuse
assert a3 == 0 and r3 == 0  # cached blocks handed back to the CUDA driver

# A real out-of-memory error is catchable; it is a RuntimeError subclass.
try:
    torch.empty(2**50, dtype=torch.uint8, device=dev)
except torch.OutOfMemoryError as e:
    assert isinstance(e, RuntimeError)
    print("caught", type(e).__name__)

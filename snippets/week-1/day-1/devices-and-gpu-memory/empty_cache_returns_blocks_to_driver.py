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
    print(f"{label:<24} allocated +{alloc:>4} MiB  "
          f"reserved +{reserved:>4} MiB")
    return alloc, reserved


# --8<-- [start:gist]
kept = torch.empty(64 * MiB, dtype=torch.uint8, device=dev)  # stays alive
x = torch.empty(256 * MiB, dtype=torch.uint8, device=dev)
# --8<-- [end:gist]
a1, r1 = report("kept 64 + x 256 MiB")
del x
a2, r2 = report("del x")
x = torch.empty(256 * MiB, dtype=torch.uint8, device=dev)
a3, r3 = report("x again (reused block)")
del x
# --8<-- [start:gist]
free_before = torch.cuda.mem_get_info(dev)[0]  # the driver's view
torch.cuda.empty_cache()
free_gain = (torch.cuda.mem_get_info(dev)[0] - free_before) // MiB
a4, r4 = report("del x, empty_cache()")
# --8<-- [end:gist]

# --8<-- [start:gist]
assert a1 == 320 and r1 >= 320
assert a2 == 64 and r2 == r1  # freed by PyTorch, still cached for reuse
assert a3 == 320 and r3 == r1  # PyTorch reused the cached block
assert a4 == 64 and r4 < r1 - 200  # cached blocks handed to the driver...
assert free_gain > 200  # ...which now reports them as free device memory
# --8<-- [end:gist]
assert kept.numel() == 64 * MiB  # memory in use is untouched
print("driver's free memory grew by about 256 MiB:", free_gain > 200)

# A real out-of-memory error is catchable; it is a RuntimeError subclass.
try:
    torch.empty(2**50, dtype=torch.uint8, device=dev)
    raise AssertionError("expected an out-of-memory error")
except torch.OutOfMemoryError as e:
    assert isinstance(e, RuntimeError)
    print("caught", type(e).__name__)

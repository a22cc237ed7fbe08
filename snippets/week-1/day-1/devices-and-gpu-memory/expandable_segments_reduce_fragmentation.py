# docexec: cuda
import re

import torch

MiB = 2**20
dev = torch.device("cuda")


def reserved_for_growing_tensors() -> int:
    """MiB the allocator keeps after tensors of 64, 128, ... 512 MiB."""
    torch.cuda.empty_cache()
    base = torch.cuda.memory_reserved(dev)
    for n in range(1, 9):  # e.g. a batch that grows step by step
        x = torch.empty(n * 64 * MiB, dtype=torch.uint8, device=dev)
        del x  # freed: its block stays cached, but is too small next time
    grown = (torch.cuda.memory_reserved(dev) - base) // MiB
    torch.cuda.empty_cache()
    return grown


# --8<-- [start:gist]
default = reserved_for_growing_tensors()
# --8<-- [end:gist]
message = ""
try:  # the out-of-memory message itself names the setting
    torch.empty(2**50, dtype=torch.uint8, device=dev)
except torch.OutOfMemoryError as e:
    message = str(e)
# torch 2.13 documents PYTORCH_ALLOC_CONF; the older PYTORCH_CUDA_ALLOC_CONF
# is its alias, and the message may still name either
hint = re.search(r"PYTORCH_(?:CUDA_)?ALLOC_CONF=expandable_segments:True",
                 message)
assert hint, f"no allocator hint in: {message[-300:]!r}"

# --8<-- [start:gist]
# the same as starting the process with
# PYTORCH_ALLOC_CONF=expandable_segments:True in its environment
torch._C._accelerator_setAllocatorSettings("expandable_segments:True")
expandable = reserved_for_growing_tensors()
torch._C._accelerator_setAllocatorSettings("expandable_segments:False")

# default: a new segment per size, 64 + 128 + ... + 512 = 2304 MiB kept;
# expandable: one segment that grows to the largest tensor (plus a page)
assert 2200 <= default <= 2400 and expandable < 600
# --8<-- [end:gist]
print(f"largest tensor 512 MiB | reserved afterwards: default "
      f"{default} MiB, expandable segments {expandable} MiB")
print("the out-of-memory message suggests:", hint.group())

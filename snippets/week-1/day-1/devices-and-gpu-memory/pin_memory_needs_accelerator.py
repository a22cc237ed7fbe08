import warnings

import torch
from torch.utils.data import DataLoader, TensorDataset

has_acc = torch.accelerator.is_available()
print("accelerator available:", has_acc)
x = torch.ones(4)
assert not x.is_pinned()  # ordinary (pageable) host memory

# Tensor.pin_memory() needs an accelerator runtime to allocate page-locked
# memory; without one it raises.
# --8<-- [start:gist]
try:
    pinned = x.pin_memory()
    assert has_acc and pinned.is_pinned()
    print("pin_memory(): pinned copy, is_pinned() =", pinned.is_pinned())
except RuntimeError as e:
    assert not has_acc
    assert "Cannot access accelerator device when none is available" in str(e)
    print("pin_memory():", e)
# --8<-- [end:gist]

# DataLoader(pin_memory=True) degrades gracefully: a warning, unpinned batches
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    loader = DataLoader(TensorDataset(torch.ones(4, 2)), batch_size=2,
                        pin_memory=True)
    (batch,) = next(iter(loader))
# --8<-- [start:gist]
assert batch.is_pinned() == has_acc
warned = any("pin_memory" in str(w.message) for w in caught)
assert warned != has_acc  # a warning exactly when nothing can be pinned
# --8<-- [end:gist]
print("DataLoader batch is_pinned():", batch.is_pinned())
for w in caught:
    print("warning:", w.message)

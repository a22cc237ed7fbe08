import threading
import warnings

import torch
from torch.utils.data import DataLoader, TensorDataset


def pinning_threads():
    return [t.name for t in threading.enumerate()
            if "_pin_memory_loop" in t.name]


# --8<-- [start:gist]
has_accelerator = torch.accelerator.is_available()
data = TensorDataset(torch.rand(32, 3, 8, 8), torch.arange(32))
loader = DataLoader(data, batch_size=8, num_workers=1, pin_memory=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    batches = iter(loader)
    images, labels = next(batches)

# With an accelerator, one thread in the main process pins each batch the
# workers send; without one, the DataLoader warns and pins nothing.
assert bool(pinning_threads()) == has_accelerator
assert images.is_pinned() == labels.is_pinned() == has_accelerator
# --8<-- [end:gist]
print("accelerator available:", has_accelerator)
print("pinning thread running:", bool(pinning_threads()))
print("batch tensors pinned:", images.is_pinned(), labels.is_pinned())
for w in caught:
    print("warning:", w.message)
del batches

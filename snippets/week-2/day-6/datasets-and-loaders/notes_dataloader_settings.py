import warnings

import torch
from torch.utils.data import DataLoader, TensorDataset

dataset = TensorDataset(torch.arange(100.0).reshape(100, 1))

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    # --8<-- [start:gist]
    loader = DataLoader(
        dataset,
        batch_size=32,
        shuffle=True,
        num_workers=2,  # the notes say 4; 2 is enough to show it here
        pin_memory=True,  # Fast GPU transfer
        drop_last=True,  # Drop incomplete last batch
    )
    # --8<-- [end:gist]
    batches = [x for (x,) in loader]

# --8<-- [start:gist]
sizes = [len(x) for x in batches]
assert sizes == [32, 32, 32]  # 100 = 3 * 32 + 4: the last 4 are dropped
# --8<-- [end:gist]
messages = [str(w.message) for w in caught]
unpinned = any("no accelerator is found" in m for m in messages)
# --8<-- [start:gist]
# pinning needs an accelerator: without one it is skipped, with a warning
assert unpinned != torch.cuda.is_available()
# --8<-- [end:gist]
assert all(x.is_pinned() for x in batches) == torch.cuda.is_available()

print("batch sizes:", sizes, "(100 samples)")
print("batches pinned:", batches[0].is_pinned())
for message in messages:
    print("warning:", message)

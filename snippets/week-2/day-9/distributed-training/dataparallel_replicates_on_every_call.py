import inspect

import torch
from torch import nn

# one process drives every visible GPU (none here: it calls the module as is)
dp = nn.DataParallel(nn.Linear(2, 1))
assert dp.device_ids == list(range(torch.cuda.device_count()))
print("GPUs this one process drives:", dp.device_ids)

# what it does with GPUs, read from the pinned torch's own forward():
# --8<-- [start:gist]
source = inspect.getsource(nn.DataParallel.forward)
steps = ["self.scatter(", "self.replicate(", "self.parallel_apply(",
         "self.gather("]
assert all(step in source for step in steps)  # all four, on every call
# --8<-- [end:gist]
print("DataParallel.forward, on every call:")
for line in source.splitlines():
    if any(step in line for step in steps):
        print(" ", line.strip())

# and the class's own documentation, in the pinned torch:
advice = " ".join(nn.DataParallel.__doc__.split())
warning = advice[advice.index("It is recommended to use"):][:170]
assert "DistributedDataParallel" in warning and "single node" in warning
print("DataParallel's docstring: it is recommended to use",
      "DistributedDataParallel ... even if there is only a single node.")

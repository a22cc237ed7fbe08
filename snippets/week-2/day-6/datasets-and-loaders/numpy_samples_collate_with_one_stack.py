from collections import Counter

import numpy as np
import torch
from torch.overrides import TorchFunctionMode
from torch.utils.data import default_collate


class CountTorchCalls(TorchFunctionMode):
    """Records every torch function called while it is active."""

    def __init__(self):
        super().__init__()
        self.calls = Counter()

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if not func.__name__.startswith("__"):  # skip attribute access
            self.calls[func.__name__] += 1
        return func(*args, **(kwargs or {}))


rng = np.random.default_rng(torch.initial_seed())
arrays = [rng.random((3, 64, 64), dtype=np.float32) for _ in range(32)]
tensors = [torch.from_numpy(a) for a in arrays]

# --8<-- [start:gist]
with CountTorchCalls() as from_numpy:
    numpy_batch = default_collate(arrays)
with CountTorchCalls() as from_tensors:
    tensor_batch = default_collate(tensors)
# --8<-- [end:gist]

# --8<-- [start:gist]
# the same single torch.stack; NumPy adds one as_tensor per sample,
# which wraps the array's memory without copying it
assert from_tensors.calls == {"stack": 1}
assert from_numpy.calls == {"as_tensor": 32, "stack": 1}
assert np.shares_memory(torch.as_tensor(arrays[0]).numpy(), arrays[0])
assert torch.equal(numpy_batch, tensor_batch)
# --8<-- [end:gist]

print("batch:", tuple(numpy_batch.shape), numpy_batch.dtype)
print("torch calls for 32 tensors:     ", dict(from_tensors.calls))
print("torch calls for 32 NumPy arrays:", dict(from_numpy.calls))

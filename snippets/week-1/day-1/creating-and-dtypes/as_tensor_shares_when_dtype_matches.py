import numpy as np
import torch
from torchguide.layout import shares_storage

arr = np.arange(4, dtype=np.float32)
base = torch.from_numpy(arr)  # zero-copy handle on arr's memory

f32, f64 = torch.float32, torch.float64
cases = {
    "as_tensor(arr)": torch.as_tensor(arr),
    "as_tensor(arr, dtype=float32)": torch.as_tensor(arr, dtype=f32),
    "as_tensor(arr, dtype=float64)": torch.as_tensor(arr, dtype=f64),
    "as_tensor(arr.tolist())": torch.as_tensor(arr.tolist()),
    "tensor(arr)": torch.tensor(arr),
}
# --8<-- [start:gist]
shared = {k: shares_storage(base, t) for k, t in cases.items()}
assert shared == {
    "as_tensor(arr)": True,  # dtype and device match: no copy
    "as_tensor(arr, dtype=float32)": True,
    "as_tensor(arr, dtype=float64)": False,  # dtype change forces a copy
    "as_tensor(arr.tolist())": False,  # a Python list has no tensor memory
    "tensor(arr)": False,  # torch.tensor always copies
}
# --8<-- [end:gist]

# with a tensor input, as_tensor returns the very same object if possible
# --8<-- [start:gist]
t = torch.ones(3)
assert torch.as_tensor(t) is t
# --8<-- [end:gist]
assert torch.as_tensor(t, dtype=torch.float64) is not t
assert torch.as_tensor(t, device="meta") is not t  # a device change: new

# --8<-- [start:gist]
torch.as_tensor(arr)[0] = 100.0  # a write through the shared tensor...
assert arr[0] == 100.0  # ...is visible in the NumPy array
# --8<-- [end:gist]

for name, s in shared.items():
    print(f"{name:30} shares memory with arr: {s}")
print("as_tensor(t) is t:", torch.as_tensor(t) is t)

import warnings

import numpy as np
import torch
from torchguide.layout import shares_storage

# torch.tensor is a function that builds a tensor FROM DATA
# --8<-- [start:gist]
s = torch.tensor(5)
assert s.shape == () and s.dtype == torch.int64 and s.item() == 5
assert torch.tensor([1, 2]).dtype == torch.int64  # dtype inferred
assert torch.tensor([1.5]).dtype == torch.get_default_dtype()  # float32
# --8<-- [end:gist]
assert torch.tensor(np.ones(2, np.float16)).dtype == torch.float16  # kept
assert not hasattr(torch.Tensor, "tensor")  # no .tensor() method

# torch.Tensor is the class; called with ints it reads them as a SHAPE
# --8<-- [start:gist]
v = torch.Tensor(5)  # 5 uninitialised floats, like torch.empty(5)
assert v.shape == (5,) and v.dtype == torch.get_default_dtype()
assert torch.Tensor(2, 3).shape == (2, 3)
assert torch.Tensor([1, 2]).dtype == torch.float32  # a list: default dtype
# --8<-- [end:gist]
ints = torch.tensor([1, 2])
assert torch.Tensor(ints).dtype == torch.int64  # a tensor keeps its dtype
assert shares_storage(torch.Tensor(ints), ints)  # and its memory
assert isinstance(s, torch.Tensor)  # every tensor is a torch.Tensor

# torch.tensor always copies; the legacy torch.Tensor(...) may not
arr = np.arange(3, dtype=np.float32)
# --8<-- [start:gist]
assert not shares_storage(torch.tensor(arr), torch.from_numpy(arr))
assert shares_storage(torch.Tensor(arr), torch.from_numpy(arr))
# --8<-- [end:gist]
t = torch.ones(3)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    copied = torch.tensor(t)  # copies a tensor too, and warns
assert not shares_storage(copied, t)
advice = str(caught[0].message)
assert advice.startswith("To copy construct from a tensor, it is recommended")

# torch.Tensor follows the default dtype; it is not hardwired to float32
torch.set_default_dtype(torch.float64)
assert torch.Tensor([1, 2]).dtype == torch.float64
torch.set_default_dtype(torch.float32)

print("torch.tensor(5):", s, "shape", tuple(s.shape), s.dtype)
print("torch.Tensor(5): shape", tuple(v.shape), v.dtype,
      "(values are whatever was in memory)")
print("torch.tensor([1, 2]).dtype:", torch.tensor([1, 2]).dtype)
print("torch.Tensor([1, 2]).dtype:", torch.Tensor([1, 2]).dtype)
print("torch.Tensor(torch.tensor([1, 2])).dtype:", torch.Tensor(ints).dtype)
print("torch.tensor(float32 array) shares memory:",
      shares_storage(torch.tensor(arr), torch.from_numpy(arr)))
print("torch.Tensor(float32 array) shares memory:",
      shares_storage(torch.Tensor(arr), torch.from_numpy(arr)))
print("torch.tensor(tensor) warns:", advice.split(" or ")[0])

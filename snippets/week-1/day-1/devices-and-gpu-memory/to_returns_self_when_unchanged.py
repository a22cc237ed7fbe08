import torch
from torchguide.layout import shares_storage

x = torch.arange(4.0)  # float32 on the CPU

# --8<-- [start:gist]
# nothing to change: .to returns the very same tensor, no copy
assert x.to("cpu") is x
assert x.to(torch.float32) is x
assert x.to("cpu", torch.float32) is x
assert x.to("cpu", copy=True) is not x  # unless a copy is requested

# one call can change dtype (and device): a new tensor, new memory
y = x.to(torch.float16)
assert y.dtype == torch.float16 and not shares_storage(x, y)
# --8<-- [end:gist]

# .to(other) copies other's dtype AND device
ref = torch.zeros(1, dtype=torch.float64)
z = x.to(ref)
assert z.dtype == torch.float64 and z.device == ref.device

# --8<-- [start:gist]
# tensor.to is NOT in place: the result must be assigned
x.to(torch.int64)
assert x.dtype == torch.float32
# --8<-- [end:gist]

print("x.to('cpu') is x:           ", x.to("cpu") is x)
print("x.to('cpu', copy=True) is x:", x.to("cpu", copy=True) is x)
print("x.to(torch.float16).dtype:  ", y.dtype)
print("x.to(float64 tensor).dtype: ", z.dtype)
print("x.dtype after x.to(int64):  ", x.dtype)

import torch
from torchguide.layout import describe_layout, shares_storage

# --8<-- [start:gist]
x = torch.arange(9, dtype=torch.float32).reshape(3, 3)
xt = x.t()

assert x.stride() == (3, 1)  # counted in elements...
assert x.numpy().strides == (12, 4)  # ...NumPy counts bytes (4 per float32)
assert xt.stride() == (1, 3) and xt.shape == (3, 3)
assert xt.storage_offset() == x.storage_offset() and not xt.is_contiguous()
assert shares_storage(x, xt) and xt.data_ptr() == x.data_ptr()
# --8<-- [end:gist]

# element [i, j] lives at storage index offset + i*stride[0] + j*stride[1]
flat = x.flatten()
s0, s1 = xt.stride()
for i in range(3):
    for j in range(3):
        assert xt[i, j] == flat[xt.storage_offset() + i * s0 + j * s1]

# --8<-- [start:gist]
# the stride does not depend on the dtype's size
x64 = x.double()
assert x64.stride() == (3, 1) and x64.numpy().strides == (24, 8)
# --8<-- [end:gist]

print("x      :", describe_layout(x))
print("x.t()  :", describe_layout(xt))
print("torch stride (elements):", x.stride(), "| float64:", x64.stride())
print("NumPy strides (bytes):  ", x.numpy().strides,
      "| float64:", x64.numpy().strides)
print("x.t() shares memory with x:", shares_storage(x, xt))

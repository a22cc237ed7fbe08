import torch

x = torch.arange(6).reshape(2, 3)
t = x.t()

# The transpose is a new view of the same memory: only shape and strides change.
assert t.data_ptr() == x.data_ptr()
assert t.stride() == tuple(reversed(x.stride()))
assert not t.is_contiguous()

print("x:", tuple(x.shape), "strides", x.stride())
print("t:", tuple(t.shape), "strides", t.stride())
print("same memory:", t.data_ptr() == x.data_ptr())

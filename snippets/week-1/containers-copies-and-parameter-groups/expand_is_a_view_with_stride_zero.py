import torch

row = torch.arange(4.0)
# --8<-- [start:gist]
expanded = row.expand(3, 4)  # a view: no copy
repeated = row.repeat(3, 1)  # a copy, 3 times the memory
assert expanded.stride() == (0, 1)  # every row is the same memory
assert expanded.data_ptr() == row.data_ptr()
assert repeated.stride() == (4, 1)
assert repeated.data_ptr() != row.data_ptr()
# --8<-- [end:gist]
storage = expanded.untyped_storage().nbytes()
assert storage == 16 and repeated.untyped_storage().nbytes() == 48
print("expand: strides", expanded.stride(), "storage bytes", storage)
print("repeat: strides", repeated.stride(), "storage bytes",
      repeated.untyped_storage().nbytes())

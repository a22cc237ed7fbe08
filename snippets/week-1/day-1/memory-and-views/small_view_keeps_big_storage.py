import torch

big = torch.zeros(1_000_000)  # 4 MB of float32
head_view = big[:10]  # a view: 10 elements visible...
head_copy = big[:10].clone()  # a copy: 10 elements allocated

view_bytes = head_view.untyped_storage().nbytes()
copy_bytes = head_copy.untyped_storage().nbytes()
assert view_bytes == 4_000_000  # ...but the whole 4 MB block is referenced
assert copy_bytes == 40

del big  # the view still holds the 4 MB storage alive; the clone does not
assert head_view.untyped_storage().nbytes() == 4_000_000

print("bytes kept alive by big[:10]:        ", view_bytes)
print("bytes kept alive by big[:10].clone():", copy_bytes)

import torch
from torchguide.layout import (
    describe_layout,
    shares_storage,
    storage_index_map,
)

# --8<-- [start:gist]
col = torch.arange(3.0).reshape(3, 1)
wide = col.expand(3, 4)  # what broadcasting does, made visible

assert wide.stride() == (1, 0)  # stride 0: every column re-reads one value
assert shares_storage(col, wide)
assert wide.untyped_storage().nbytes() == 3 * 4  # still 3 floats in memory
assert storage_index_map(wide).tolist() == [[0] * 4, [1] * 4, [2] * 4]
# --8<-- [end:gist]
assert torch.broadcast_to(col, (3, 4)).stride() == (1, 0)
assert torch.equal(torch.broadcast_to(col, (3, 4)), wide)

# --8<-- [start:gist]
# the result of an arithmetic op is a normal, fully allocated tensor
out = wide + torch.zeros(4)
assert out.stride() == (4, 1) and out.untyped_storage().nbytes() == 48
# --8<-- [end:gist]

print("col      :", describe_layout(col))
print("expanded :", describe_layout(wide))
print("bytes behind the expanded (3, 4) tensor:",
      wide.untyped_storage().nbytes())
print("col + zeros(4):", describe_layout(out))

import torch
from torchguide.layout import describe_layout, shares_storage

x = torch.arange(12.0).reshape(3, 4)

# Not contiguous, yet .view works: only dims that are already laid out
# one after the other in memory are merged or split.
# --8<-- [start:gist]
cols = x[:, :2]  # shape (3, 2), stride (4, 1)
assert not cols.is_contiguous()
split = cols.view(3, 1, 2)
assert shares_storage(x, split)
# --8<-- [end:gist]
print("cols          :", describe_layout(cols))
print("cols.view     :", describe_layout(split))

# --8<-- [start:gist]
xt = x.t()  # shape (4, 3), stride (1, 4)
# --8<-- [end:gist]
split_t = xt.view(2, 2, 3)  # splitting dim 0 (stride 1) is fine
assert not xt.is_contiguous() and shares_storage(x, split_t)
print("x.t().view    :", describe_layout(split_t))

# --8<-- [start:gist]
# Merging the two dims of x.t() is impossible without moving data:
# reshape copies only then; contiguous().view copies explicitly.
flat_r = xt.reshape(12)
flat_c = xt.contiguous().view(12)
assert torch.equal(flat_r, flat_c)
assert not shares_storage(x, flat_r) and not shares_storage(x, flat_c)
assert shares_storage(x, x.reshape(12))  # contiguous input: still a view
# --8<-- [end:gist]
print("x.t().reshape(12) shares memory:", shares_storage(x, flat_r))
print("x.reshape(12) shares memory:    ", shares_storage(x, x.reshape(12)))

import torch

# --8<-- [start:gist]
# align shapes from the right; a missing dim counts as size 1;
# each pair must be equal or contain a 1
assert torch.broadcast_shapes((5, 1, 4), (3, 1)) == (5, 3, 4)
assert torch.broadcast_shapes((8, 1, 6, 1), (7, 1, 5)) == (8, 7, 6, 5)
assert torch.broadcast_shapes((3, 4), (4,)) == (3, 4)
assert torch.broadcast_shapes((2, 0), (1,)) == (2, 0)  # 1 stretches to 0

col = torch.arange(3.0).reshape(3, 1)
row = torch.arange(4.0)  # shape (4,) acts as (1, 4)
out = col * 10 + row
assert out.shape == (3, 4) and out[2, 3] == 23.0
# --8<-- [end:gist]
print("(3, 1) op (4,) ->", tuple(out.shape))
print(out)

errors = {}
try:
    torch.ones(3, 4) + torch.ones(3)  # right-aligned: 4 vs 3
except RuntimeError as e:
    errors["(3, 4) + (3,)"] = str(e)
try:
    col += row  # in-place: the result must fit the left operand's shape
except RuntimeError as e:
    errors["(3, 1) += (4,)"] = str(e)
assert "at non-singleton dimension 1" in errors["(3, 4) + (3,)"]
assert "doesn't match the broadcast shape" in errors["(3, 1) += (4,)"]
grid = torch.zeros(3, 4)
grid += row  # the right operand may still broadcast
assert torch.equal(grid[2], row)
for expr, msg in errors.items():
    print(f"{expr}: RuntimeError: {msg}")

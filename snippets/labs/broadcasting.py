# %% [markdown]
# # Broadcasting, step by step
#
# Two tensors of different shapes can be combined when, aligned from the right,
# each pair of sizes is equal or one of them is 1. This lab checks the rule.

# %%
import torch
from torchguide.drills import check_here

column = torch.arange(3).reshape(3, 1)
row = torch.arange(4).reshape(1, 4)
grid = column * 10 + row
assert grid.shape == (3, 4)
print(grid)

# %% [markdown]
# ## Your turn: the rule as a function
#
# Write `broadcast_shape(a, b)`: given two shapes as tuples of ints, return the
# shape that `torch.broadcast_shapes(a, b)` gives, as a tuple, or `None` where
# the two do not broadcast. Call neither torch (its `broadcast_shapes`, or
# tensors to try the shapes on) nor `numpy.broadcast_shapes`: work from the
# two tuples alone.
# Write it in the next cell, run it, then run the check cell after it: the
# checker tries your function on named edge cases and on generated shapes, and
# says what differs (`python -m torchguide.drills show broadcast_shape` prints
# hints).

# %% active="ipynb"
# def broadcast_shape(a: tuple, b: tuple) -> tuple | None:
#     raise NotImplementedError("write broadcast_shape here")

# %% active="ipynb" tags=["raises-exception"]
# # Checks your broadcast_shape: run the cell above first, then this one.
# from torchguide.drills import check_here
#
# check_here("broadcast_shape", broadcast_shape)

# %% [markdown]
# One way to do it, which the rest of the lab uses (running this cell replaces
# your function; run your cell again to get it back): pad the shorter shape
# with 1s on the left, then take each pair of sizes in turn.

# %%
def broadcast_shape(a, b):
    size = max(len(a), len(b))
    a = (1,) * (size - len(a)) + tuple(a)
    b = (1,) * (size - len(b)) + tuple(b)
    shape = []
    for x, y in zip(a, b):
        if x == y or y == 1:
            shape.append(x)
        elif x == 1:
            shape.append(y)
        else:
            return None  # neither equal nor 1
    return tuple(shape)


assert broadcast_shape(column.shape, row.shape) == grid.shape
print("broadcast_shape((3, 1), (1, 4)) =", broadcast_shape((3, 1), (1, 4)))
check_here("broadcast_shape", broadcast_shape)

# %% [markdown]
# The size-1 dimension is not copied: `expand` shows the trick, a stride of 0.

# %%
expanded = column.expand(3, 4)
assert expanded.stride() == (1, 0)
assert expanded.data_ptr() == column.data_ptr()
print("strides of the expanded view:", expanded.stride())

# %% [markdown]
# Sizes that are neither equal nor 1 do not broadcast.

# %%
assert broadcast_shape((3, 2), (3,)) is None
try:
    torch.ones(3, 2) + torch.ones(3)
except RuntimeError as error:
    print(type(error).__name__, ":", error)

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
# ### Your turn: the strides of an expanded view
#
# Write `expand_strides(shape, strides, target)`: a tensor has `shape` and
# `strides` (tuples of ints); return the strides that `tensor.expand(*target)`
# has, as a tuple, or `None` where `expand` refuses. `target` is a tuple of
# sizes (no `-1`); where its size is 1, any stride is accepted (that dimension
# is never stepped along). Use no torch and no tensor: only the tuples. Then
# run the check cell (`python -m torchguide.drills show expand_strides`
# prints hints).

# %% active="ipynb"
# def expand_strides(shape, strides, target) -> tuple | None:
#     raise NotImplementedError("write expand_strides here")

# %% active="ipynb" tags=["raises-exception"]
# # Checks your expand_strides: run the cell above first, then this one.
# from torchguide.drills import check_here
#
# check_here("expand_strides", expand_strides)

# %% [markdown]
# One way to do it (running this cell replaces your function; run your cell
# again to get it back): a size that matches keeps its stride; a size of 1
# stretched, and a dimension `target` adds in front, step by 0.

# %%
def expand_strides(shape, strides, target):
    if len(target) < len(shape):
        return None
    new = len(target) - len(shape)
    result = [0] * new  # a new leading dimension repeats the whole tensor
    for size, stride, wanted in zip(shape, strides, target[new:]):
        if size == wanted:
            result.append(stride)
        elif size == 1:
            result.append(0)
        else:
            return None
    return tuple(result)


assert expand_strides(column.shape, column.stride(), (3, 4)) == (1, 0)
print("expand_strides((3, 1), (1, 1), (2, 3, 4)) =",
      expand_strides((3, 1), (1, 1), (2, 3, 4)))
check_here("expand_strides", expand_strides)

# %% [markdown]
# Sizes that are neither equal nor 1 do not broadcast.

# %%
assert broadcast_shape((3, 2), (3,)) is None
try:
    torch.ones(3, 2) + torch.ones(3)
except RuntimeError as error:
    print(type(error).__name__, ":", error)

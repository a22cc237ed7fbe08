# %% [markdown]
# # Broadcasting, step by step
#
# Two tensors of different shapes can be combined when, aligned from the right,
# each pair of sizes is equal or one of them is 1. This lab checks the rule.

# %%
import torch

column = torch.arange(3).reshape(3, 1)
row = torch.arange(4).reshape(1, 4)
grid = column * 10 + row
assert grid.shape == (3, 4)
print(grid)

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
try:
    torch.ones(3, 2) + torch.ones(3)
except RuntimeError as error:
    print(type(error).__name__, ":", error)

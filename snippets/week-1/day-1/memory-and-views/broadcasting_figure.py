import matplotlib.pyplot as plt
import torch

# --8<-- [start:gist]
column = torch.arange(3).reshape(3, 1) * 10  # shape (3, 1)
row = torch.arange(4).reshape(1, 4)  # shape (1, 4)
total = column + row  # shape (3, 4)

# The stretched operands are stride-0 views: nothing is copied to build them.
wide_column, tall_row = torch.broadcast_tensors(column, row)
assert wide_column.stride() == (1, 0) and tall_row.stride() == (0, 1)
assert wide_column.data_ptr() == column.data_ptr()
assert torch.equal(total, wide_column + tall_row)
# --8<-- [end:gist]

print("column strides as broadcast:", wide_column.stride())
print("row strides as broadcast:   ", tall_row.stride())
print("result shape:", tuple(total.shape), "strides:", total.stride())


def draw(ax, values, title, stretched=None):
    """A grid of values; cells that only re-read stored ones are hatched."""
    rows, cols = values.shape
    for r in range(rows):
        for c in range(cols):
            copy = stretched is not None and stretched(r, c)
            ax.add_patch(plt.Rectangle((c, rows - 1 - r), 1, 1, fill=not copy,
                                       facecolor="#ffe0b2", edgecolor="black",
                                       hatch="//" if copy else None))
            ax.text(c + 0.5, rows - 0.5 - r, str(values[r, c].item()),
                    ha="center", va="center")
    ax.set(xlim=(0, 4), ylim=(0, 3), aspect="equal", title=title)
    ax.axis("off")


fig, axes = plt.subplots(3, 1, figsize=(4.2, 6.6))
draw(axes[0], wide_column, "column (3, 1)\nread with stride (1, 0)",
     stretched=lambda r, c: c > 0)
draw(axes[1], tall_row, "row (1, 4)\nread with stride (0, 1)",
     stretched=lambda r, c: r > 0)
draw(axes[2], total, "column + row: (3, 4)\na new, full tensor")
fig.suptitle("Hatched cells are not stored: they re-read the stored ones")
fig.tight_layout()

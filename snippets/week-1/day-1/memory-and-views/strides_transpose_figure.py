import matplotlib.pyplot as plt
import torch
from torchguide.layout import storage_index_map

# --8<-- [start:gist]
x = torch.arange(6.0).reshape(2, 3)
xt = x.t()
# --8<-- [end:gist]
panels = [
    ("storage: 6 floats in a row", torch.arange(6).reshape(1, 6)),
    (f"x\nshape {tuple(x.shape)}, stride {x.stride()}",
     storage_index_map(x)),
    (f"x.t()\nshape {tuple(xt.shape)}, stride {xt.stride()}",
     storage_index_map(xt)),
]
# --8<-- [start:gist]
assert storage_index_map(xt).tolist() == [[0, 3], [1, 4], [2, 5]]
# --8<-- [end:gist]

fig, axes = plt.subplots(
    3, 1, figsize=(4.8, 6.4), gridspec_kw={"height_ratios": [1, 2, 3]}
)
for ax, (title, idx) in zip(axes, panels):
    ax.imshow(idx, cmap="tab10", vmin=0, vmax=9)
    rows, cols = idx.shape
    for r in range(rows):
        for c in range(cols):
            k = int(idx[r, c])
            ax.text(c, r, f"[{k}]", ha="center", va="center", fontsize=11)
    ax.set_title(title, fontsize=10)
    ax.set_xticks(range(cols))
    ax.set_yticks(range(rows))
    ax.set_xlabel("column index")
    ax.set_ylabel("row index")
axes[0].set_xlabel("position in memory")
axes[0].set_yticks([])
axes[0].set_ylabel("")
fig.suptitle("Each cell shows the storage index it reads", fontsize=11)
fig.tight_layout()
# --8<-- [start:gist]
print("storage index of each element of x.t():",
      storage_index_map(xt).tolist())
# --8<-- [end:gist]

# docexec: timeout=60
import matplotlib.pyplot as plt
import torch
from torchguide.debug.toyvision import (
    CLASS_NAMES,
    bar_images,
    train_tiny_cnn,
)

SEED = torch.initial_seed()
labelled = bar_images(600, seed=SEED)
pool = bar_images(300, seed=SEED + 2)  # "unlabelled": its labels are not used
model = train_tiny_cnn(labelled.images, labelled.labels)

# --8<-- [start:gist]
with torch.no_grad():
    p = model(pool.images).softmax(dim=1)
entropy = -(p * p.log()).sum(dim=1)  # high = unsure among many classes
# --8<-- [end:gist]
top2 = p.topk(2, dim=1).values
margin = top2[:, 0] - top2[:, 1]  # low = unsure between two classes

# --8<-- [start:gist]
k = 15  # the labelling budget of this round
by_entropy = entropy.topk(k).indices
# --8<-- [end:gist]
by_margin = (-margin).topk(k).indices
shared = len(set(by_entropy.tolist()) & set(by_margin.tolist()))
print(f"picked for labelling: {k} of {len(pool)}; entropy and margin "
      f"agree on {shared}")

# Now ask the oracle: what are the picked samples?
# --8<-- [start:gist]
correct = model(pool.images).argmax(1) == pool.labels
picked = torch.zeros(len(pool), dtype=torch.bool)
picked[by_entropy] = True
assert correct[picked].float().mean() < correct[~picked].float().mean()
assert pool.contrast[picked].mean() < pool.contrast[~picked].mean()
# --8<-- [end:gist]
for name, rows in [("picked", picked), ("rest", ~picked)]:
    print(f"{name:>6}: model correct on {correct[rows].float().mean():.0%}"
          f", mean bar contrast {pool.contrast[rows].mean():.2f}")

fig, axes = plt.subplots(2, 3, figsize=(4.8, 4.4))
for ax, i in zip(axes.flat, by_entropy):
    ax.imshow(pool.images[i, 0], cmap="gray", interpolation="none")
    ax.set_title(f"H={entropy[i]:.2f}\nis {CLASS_NAMES[pool.labels[i]]}",
                 fontsize=10)
    ax.set_axis_off()
fig.suptitle("The most uncertain pool images: entropy H, true class")
fig.tight_layout()

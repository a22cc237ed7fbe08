# docexec: timeout=60
import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torchguide.debug.attribution import saliency
from torchguide.debug.toyvision import (
    CLASS_NAMES,
    bar_images,
    train_tiny_cnn,
)

SEED = torch.initial_seed()
train, test = bar_images(600, seed=SEED), bar_images(300, seed=SEED + 1)
model = train_tiny_cnn(train.images, train.labels)

# --8<-- [start:gist]
# |d score / d pixel| of the true class, for all 300 test images at once
maps = saliency(model, test.images, target=test.labels)[:, 0]
# --8<-- [end:gist]

# --8<-- [start:gist]
bar = test.bar_masks
near_bar = F.max_pool2d(bar[:, None].float(), 3, 1, 1)[:, 0].bool()
background = ~near_bar  # more than one pixel away from the bar
# --8<-- [end:gist]


def mean_over(mask):
    return (maps * mask).sum(dim=(1, 2)) / mask.sum(dim=(1, 2))


# --8<-- [start:gist]
ratio = mean_over(bar) / mean_over(background)
top8 = maps.flatten(1).topk(8, dim=1).indices
top8_near_bar = near_bar.flatten(1).gather(1, top8).float().mean()
chance = near_bar.float().mean()
assert ratio.median() > 5
assert top8_near_bar > 4 * chance
# --8<-- [end:gist]
print(f"saliency of a bar pixel / a background pixel: median "
      f"{ratio.median():.1f}x, {(ratio > 2).float().mean():.0%} "
      f"of images above 2x")
print(f"8 most salient pixels on or next to the bar: "
      f"{top8_near_bar:.0%} (area there: {chance:.0%})")
for c, name in enumerate(CLASS_NAMES):
    print(f"  {name:<13} median ratio "
          f"{ratio[test.labels == c].median():.1f}x")

fig, axes = plt.subplots(2, 4, figsize=(4.8, 3.2))
for c in range(4):  # the first clear image of each class
    i = int(((test.labels == c) & (test.contrast > 0.8)).nonzero()[0])
    axes[0, c].imshow(test.images[i, 0], cmap="gray", interpolation="none")
    axes[0, c].set_title(CLASS_NAMES[c], fontsize=10)
    axes[1, c].imshow(maps[i], cmap="hot", interpolation="none")
for ax in axes.flat:
    ax.set_xticks([])
    ax.set_yticks([])
axes[0, 0].set_ylabel("input")
axes[1, 0].set_ylabel("saliency")
fig.suptitle("Gradient saliency of the true class lights up the bar")
fig.tight_layout()

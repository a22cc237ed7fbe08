# docexec: timeout=60
import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torchguide.debug.attribution import grad_cam
from torchguide.debug.toyvision import (
    CLASS_NAMES,
    bar_images,
    train_tiny_cnn,
)

SEED = torch.initial_seed()
train, test = bar_images(600, seed=SEED), bar_images(300, seed=SEED + 1)
model = train_tiny_cnn(train.images, train.labels)
# --8<-- [start:gist]
last_block = model.features[4]  # ReLU after the last conv: 32 maps, 8x8

heat = grad_cam(model, last_block, test.images, target=test.labels)
# --8<-- [end:gist]
print("heatmaps:", tuple(heat.shape), "(8x8 upsampled to the input)")

# Where is each heatmap hottest, and is that on or next to the bar?
# --8<-- [start:gist]
near_bar = F.max_pool2d(test.bar_masks[:, None].float(), 3, 1, 1)
peak = heat.flatten(1).argmax(dim=1)
hit = near_bar.flatten(1).gather(1, peak[:, None])[:, 0].bool()
share_near_bar = (heat * near_bar[:, 0]).sum((1, 2)) / heat.sum((1, 2))
# the area near the bar is ~9% of the image; the peak lands there far
# more often (66-94% of the images over 8 seeds)
assert hit.float().mean() > 5 * near_bar.mean()
# --8<-- [end:gist]
print(f"hottest pixel on or next to the bar: {hit.float().mean():.0%}"
      f" of {len(hit)} images (area there: {near_bar.mean():.0%})")
print(f"share of the heat there: median {share_near_bar.median():.0%}")

fig, axes = plt.subplots(2, 4, figsize=(4.8, 3.2))
for c in range(4):  # the first clear image of each class
    i = int(((test.labels == c) & (test.contrast > 0.8)).nonzero()[0])
    axes[0, c].imshow(test.images[i, 0], cmap="gray", interpolation="none")
    axes[0, c].set_title(CLASS_NAMES[c], fontsize=10)
    axes[1, c].imshow(test.images[i, 0], cmap="gray", interpolation="none")
    axes[1, c].imshow(heat[i], cmap="jet", alpha=0.5, interpolation="none")
for ax in axes.flat:
    ax.set_xticks([])
    ax.set_yticks([])
axes[0, 0].set_ylabel("input")
axes[1, 0].set_ylabel("Grad-CAM")
fig.suptitle("Grad-CAM of the true class, laid over the input")
fig.tight_layout()

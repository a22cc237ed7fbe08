# docexec: timeout=60
import matplotlib.pyplot as plt
import torch
from torchguide.debug.toyvision import (
    CLASS_NAMES,
    bar_images,
    train_tiny_cnn,
)

SEED = torch.initial_seed()
# --8<-- [start:gist]
# noise + one bar; its orientation is the class
train = bar_images(600, seed=SEED)
test = bar_images(300, seed=SEED + 1)
model = train_tiny_cnn(train.images, train.labels)  # 300 Adam steps
# --8<-- [end:gist]
print(model)

# --8<-- [start:gist]
with torch.no_grad():
    predicted = model(test.images).argmax(dim=1)
accuracy = (predicted == test.labels).float().mean().item()
assert accuracy > 0.9
print(f"test accuracy: {accuracy:.1%}")
# --8<-- [end:gist]
for c, name in enumerate(CLASS_NAMES):
    mine = test.labels == c
    hits = (predicted[mine] == c).float().mean().item()
    print(f"  {name:<13} {hits:.0%} of {mine.sum()}")

fig, axes = plt.subplots(1, 4, figsize=(4.8, 1.8))
for c, ax in enumerate(axes):
    i = int((test.labels == c).nonzero()[0])
    ax.imshow(test.images[i, 0], cmap="gray", interpolation="none")
    ax.set_title(CLASS_NAMES[c], fontsize=10)
    ax.set_axis_off()
fig.suptitle("Test images: noise plus one bar, one per class")
fig.tight_layout()

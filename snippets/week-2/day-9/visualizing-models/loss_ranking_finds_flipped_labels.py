# docexec: timeout=90
import matplotlib.pyplot as plt
import torch
from torchguide.debug.toyvision import (
    CLASS_NAMES,
    bar_images,
    train_tiny_cnn,
)

SEED = torch.initial_seed()
data = bar_images(600, seed=SEED)
g = torch.Generator().manual_seed(SEED + 1)
# --8<-- [start:gist]
flipped = torch.randperm(600, generator=g)[:60]  # 10% wrong labels
# --8<-- [end:gist]
given = data.labels.clone()
given[flipped] = (given[flipped] + torch.randint(1, 4, (60,), generator=g)) % 4
is_flipped = given != data.labels

# Score each sample with a model that did not train on it (2 folds),
# so that it cannot have memorised the wrong label.
p = torch.empty(600, 4)
folds = torch.arange(600) % 2 == 0
for held_out in (folds, ~folds):
    model = train_tiny_cnn(data.images[~held_out], given[~held_out])
    with torch.no_grad():
        p[held_out] = model(data.images[held_out]).softmax(dim=1)

# --8<-- [start:gist]
loss = -p.gather(1, given[:, None])[:, 0].log()  # uses the given label
entropy = -(p * p.log()).sum(dim=1)  # ignores the label
k = 60
found = {
    "highest loss": is_flipped[loss.topk(k).indices].sum().item(),
    "highest entropy": is_flipped[entropy.topk(k).indices].sum().item(),
}
assert found["highest loss"] >= 0.75 * k
assert found["highest entropy"] < found["highest loss"] / 3
# --8<-- [end:gist]
print(f"flipped labels among the top {k} samples (random picks: "
      f"{k * 60 / 600:.0f} expected)")
for name, hits in found.items():
    print(f"  by {name:<15}: {hits}")

fig, axes = plt.subplots(2, 3, figsize=(4.8, 4.4))
for ax, i in zip(axes.flat, loss.topk(6).indices):
    ax.imshow(data.images[i, 0], cmap="gray", interpolation="none")
    ax.set_title(f"label: {CLASS_NAMES[given[i]]}\n"
                 f"model: {CLASS_NAMES[p[i].argmax()]}", fontsize=10)
    ax.set_axis_off()
fig.suptitle("Training samples with the highest loss under their label")
fig.tight_layout()

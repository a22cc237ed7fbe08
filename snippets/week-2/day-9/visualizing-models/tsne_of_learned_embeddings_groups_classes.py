# docexec: timeout=90
import matplotlib.pyplot as plt
import numpy as np
import torch
from sklearn.manifold import TSNE
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from torchguide.debug.toyvision import (
    CLASS_NAMES,
    bar_images,
    train_tiny_cnn,
)

SEED = torch.initial_seed()
train, test = bar_images(600, seed=SEED), bar_images(300, seed=SEED + 1)
model = train_tiny_cnn(train.images, train.labels)
with torch.no_grad():
    embeddings = model.embed(test.images).numpy()  # (300, 32)
pixels = test.images.flatten(1).numpy()  # (300, 256)
labels = test.labels.numpy()


def knn_accuracy(points):
    """How often a point's 5 nearest neighbours vote for its class."""
    knn = KNeighborsClassifier(n_neighbors=5)
    return cross_val_score(knn, points, labels, cv=5).mean()


# init="random": the default PCA start varies in its last digits with
# the number of BLAS threads, and t-SNE would amplify that.
# --8<-- [start:gist]
tsne = TSNE(init="random", random_state=SEED)
maps = {
    "raw pixels": tsne.fit_transform(pixels),
    "learned embeddings": tsne.fit_transform(embeddings),
}
random_map = np.random.default_rng(SEED).normal(size=(300, 2))
scores = {name: knn_accuracy(xy) for name, xy in maps.items()}
scores["random 2-D points"] = knn_accuracy(random_map)
assert scores["learned embeddings"] > 0.9
assert scores["raw pixels"] < 0.6 and scores["random 2-D points"] < 0.4
# --8<-- [end:gist]
print(f"5-NN accuracy in the 32-D embeddings: "
      f"{knn_accuracy(embeddings):.0%}")
for name, accuracy in scores.items():
    print(f"5-NN accuracy in the 2-D map of {name}: {accuracy:.0%}")

fig, axes = plt.subplots(2, 1, figsize=(4.8, 6.4))
for ax, (name, xy) in zip(axes, maps.items()):
    for c, class_name in enumerate(CLASS_NAMES):
        mine = labels == c
        ax.scatter(xy[mine, 0], xy[mine, 1], s=6, label=class_name)
    ax.set(title=f"t-SNE of {name}", xlabel="t-SNE 1", ylabel="t-SNE 2")
axes[1].legend(fontsize=10, markerscale=2)
fig.suptitle("t-SNE maps of 300 test images, coloured by class")
fig.tight_layout()

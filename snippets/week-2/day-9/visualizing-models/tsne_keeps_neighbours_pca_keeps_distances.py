# docexec: timeout=90
import matplotlib.pyplot as plt
import numpy as np
import torch
from sklearn.decomposition import PCA
from sklearn.manifold import TSNE, trustworthiness
from sklearn.metrics import pairwise_distances
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
labels = test.labels.numpy()
pairs = np.triu_indices(len(embeddings), k=1)
distances = pairwise_distances(embeddings)[pairs]

# --8<-- [start:gist]
maps = {
    "PCA": PCA(n_components=2).fit_transform(embeddings),
    "t-SNE": TSNE(init="random", random_state=SEED).fit_transform(embeddings),
}
neighbours, spread = {}, {}
for name, xy in maps.items():
    # 1.0 = no point gets a 2-D neighbour that was far away in 32-D
    neighbours[name] = trustworthiness(embeddings, xy, n_neighbors=10)
    # do large distances stay large, small ones small?
    spread[name] = np.corrcoef(distances, pairwise_distances(xy)[pairs])[0, 1]
# --8<-- [end:gist]
    print(f"{name:5}: trustworthiness {neighbours[name]:.3f}, "
          f"correlation of pairwise distances {spread[name]:.2f}")
# --8<-- [start:gist]
assert neighbours["t-SNE"] > neighbours["PCA"]
assert spread["PCA"] > spread["t-SNE"]
# --8<-- [end:gist]

# PCA is a fitted linear map; t-SNE only places the points it was given.
assert hasattr(PCA, "transform") and not hasattr(TSNE, "transform")
print("PCA.transform exists:", hasattr(PCA, "transform"),
      "| TSNE.transform exists:", hasattr(TSNE, "transform"))

fig, axes = plt.subplots(2, 1, figsize=(4.8, 6.4))
for ax, (name, xy) in zip(axes, maps.items()):
    for c, class_name in enumerate(CLASS_NAMES):
        mine = labels == c
        ax.scatter(xy[mine, 0], xy[mine, 1], s=6, label=class_name)
    ax.set(title=name, xlabel=f"{name} 1", ylabel=f"{name} 2")
axes[0].legend(fontsize=10, markerscale=2)
fig.suptitle("The same 32-D embeddings in 2-D: PCA and t-SNE")
fig.tight_layout()

from pathlib import Path

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader
from torchguide.data.collate import collate_padded_images
from torchguide.data.images import ImageCsvDataset

sizes = [(32, 24), (20, 28), (28, 28), (24, 16), (30, 20)]  # (W, H)
rows = ["file,label"] + [f"img{i}.png,{i % 2}" for i in range(len(sizes))]
Path("labels.csv").write_text("\n".join(rows) + "\n")

# --8<-- [start:gist]
dataset = ImageCsvDataset("labels.csv")  # reads the CSV only
assert not list(Path().glob("*.png"))  # no image exists yet: nothing loaded
# --8<-- [end:gist]

rng = np.random.default_rng(torch.initial_seed())
for i, (w, h) in enumerate(sizes):
    pixels = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    Image.fromarray(pixels).save(f"img{i}.png")

# --8<-- [start:gist]
loader = DataLoader(
    dataset, batch_size=2, num_workers=2, collate_fn=collate_padded_images
)
batches = list(loader)
# --8<-- [end:gist]

# --8<-- [start:gist]
assert [b.images.shape for b in batches] == [
    (2, 3, 28, 32),
    (2, 3, 28, 28),
    (1, 3, 20, 30),
]
# --8<-- [end:gist]
first = batches[0]
assert first.images.dtype == torch.uint8
assert first.sizes.tolist() == [[24, 32], [28, 20]]
# the real pixels are untouched, the padding is zero and masked out
assert torch.equal(first.images[1, :, :28, :20], dataset[1][0])
assert first.images[1, :, :, 20:].eq(0).all()
assert first.mask[1].sum() == 28 * 20

for b in batches:
    shape, sizes = tuple(b.images.shape), b.sizes.tolist()
    print(shape, "sizes (H, W):", sizes, "labels:", b.labels.tolist())

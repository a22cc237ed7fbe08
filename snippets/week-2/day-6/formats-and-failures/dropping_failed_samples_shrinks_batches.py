import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from torchguide.data.failures import collate_dropping_none

rng = np.random.default_rng(torch.initial_seed())
paths = np.array([f"img{i:03d}.png" for i in range(40)])
for path in paths:
    Image.fromarray(rng.integers(0, 256, (8, 8, 3), np.uint8)).save(path)
broken = {3, *range(8, 16), 21, 38}  # batch 1 (samples 8-15) entirely
for i in broken:
    with open(paths[i], "r+b") as f:
        f.truncate(50)  # header intact, pixel data cut short


class PNGs(Dataset):
    def __init__(self, paths):
        self.paths = paths  # a NumPy array: no copy-on-write growth

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        try:
            with Image.open(self.paths[i]) as image:
                pixels = np.array(image.convert("RGB"))
        except OSError:  # truncated, empty, not an image at all
            return None
        return torch.from_numpy(pixels).permute(2, 0, 1), i


# --8<-- [start:gist]
loader = DataLoader(PNGs(paths), batch_size=8, num_workers=2,
                    collate_fn=collate_dropping_none)
# --8<-- [end:gist]
sizes, seen = [], []
# --8<-- [start:gist]
for batch in loader:
    if batch is None:  # every sample of this batch failed
        sizes.append(0)
        continue
    images, indices = batch
    sizes.append(len(images))
    seen += indices.tolist()
# --8<-- [end:gist]

# --8<-- [start:gist]
assert sizes == [7, 0, 7, 8, 7]
assert sorted(seen) == sorted(set(range(40)) - broken)  # no repeats
# --8<-- [end:gist]
print("batch sizes:", sizes)
print(f"samples trained on: {len(seen)} of 40, each once")

from collections import Counter

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from torchguide.data.failures import ResampleFailed

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
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        try:
            with Image.open(self.paths[i]) as image:
                pixels = np.array(image.convert("RGB"))
        except OSError:
            return None
        return torch.from_numpy(pixels).permute(2, 0, 1), i


# --8<-- [start:gist]
resampled = ResampleFailed(PNGs(paths), seed=torch.initial_seed())
loader = DataLoader(resampled, batch_size=8,
                    num_workers=2)  # the default collate: nothing is None
sizes, seen = [], Counter()
for images, indices in loader:
    sizes.append(len(images))
    seen.update(indices.tolist())

assert sizes == [8, 8, 8, 8, 8]
assert not broken & set(seen)  # a broken file never reaches the model
assert sum(seen.values()) == 40  # 11 of them are repeats
# --8<-- [end:gist]
repeats = sorted(i for i, n in seen.items() if n > 1)
print("batch sizes:", sizes)
print(f"distinct samples: {len(seen)} of 40; seen more than once: {repeats}")

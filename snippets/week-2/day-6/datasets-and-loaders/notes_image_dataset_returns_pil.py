# docexec: raises=TypeError match="found <class 'PIL\.Image\.Image'>"
from pathlib import Path

import numpy as np
import pandas as pd
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset

# five PNG files of different sizes and a CSV of file,label rows
rng = np.random.default_rng(torch.initial_seed())
sizes = [(32, 24), (20, 28), (28, 28), (24, 16), (30, 20)]  # (W, H)
rows = ["file,label"]
for i, (w, h) in enumerate(sizes):
    pixels = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    Image.fromarray(pixels).save(f"img{i}.png")
    rows.append(f"img{i}.png,{i % 2}")
Path("labels.csv").write_text("\n".join(rows) + "\n")


class MyImageDataset(Dataset):  # the notes' class, as written
    def __init__(self, csv_file, transform=None):
        self.data = pd.read_csv(csv_file)
        self.transform = transform

    def __len__(self):
        return len(self.data)

    # --8<-- [start:gist]
    def __getitem__(self, idx):
        img_path = self.data.iloc[idx, 0]
        label = self.data.iloc[idx, 1]
        image = Image.open(img_path).convert("RGB")
        if self.transform:
            image = self.transform(image)
        return image, label
    # --8<-- [end:gist]


# --8<-- [start:gist]
dataset = MyImageDataset("labels.csv")
image, label = dataset[0]  # one sample works: a PIL image and a label
print(type(image).__name__, image.size, type(label).__name__, label)
next(iter(DataLoader(dataset, batch_size=2)))  # batching does not
# --8<-- [end:gist]

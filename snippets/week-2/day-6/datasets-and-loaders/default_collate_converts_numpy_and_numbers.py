import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class NoTensors(Dataset):  # __getitem__ returns no tensor at all
    def __len__(self):
        return 4

    def __getitem__(self, i):
        features = np.full(3, i, dtype=np.float32)
        return {
            "features": features,
            "label": i % 2,
            "weight": 0.5,
            "name": f"s{i}",
        }


# --8<-- [start:gist]
batch = next(iter(DataLoader(NoTensors(), batch_size=4, num_workers=2)))

assert isinstance(batch["features"], torch.Tensor)
assert batch["features"].shape == (4, 3)
assert batch["features"].dtype == torch.float32  # the array's dtype is kept
assert batch["label"].dtype == torch.int64
assert batch["weight"].dtype == torch.float64  # a Python float is float64
assert batch["name"] == ["s0", "s1", "s2", "s3"]  # strings stay a list
# --8<-- [end:gist]

for key, value in batch.items():
    kind = value.dtype if isinstance(value, torch.Tensor) else value
    print(f"{key:9}", type(value).__name__, kind)

import tarfile

import numpy as np
import torch
import webdataset as wds
from torch.utils.data import IterableDataset

rng = np.random.default_rng(torch.initial_seed())
# --8<-- [start:gist]
with wds.ShardWriter("train-%06d.tar", maxcount=8, verbose=0) as sink:
    for i in range(32):
        image = rng.integers(0, 256, (16, 16, 3), dtype=np.uint8)
        # One sample: files that share a key; the extension names the field
        # and picks the encoder (a uint8 array under "png" is PNG-encoded).
        sink.write({"__key__": f"sample{i:04d}", "png": image, "cls": i % 10})
# --8<-- [end:gist]

# --8<-- [start:gist]
with tarfile.open("train-000000.tar") as shard:  # the standard library
    members = shard.getmembers()
assert len(members) == 2 * 8  # 8 samples of 2 files each
# --8<-- [end:gist]
for member in members[:4]:
    print(f"{member.name:16} {member.size:5} bytes")
print("...", len(members), "files in shard 0")

dataset = (wds.WebDataset("train-{000000..000003}.tar", shardshuffle=False)
           .decode("rgb8").to_tuple("png", "cls"))
image, label = next(iter(dataset))
assert image.shape == (16, 16, 3) and label == 0
print("first sample decoded:", image.shape, image.dtype, "label", label)
# A stream: an IterableDataset without a length or random access.
assert isinstance(dataset, IterableDataset) and not hasattr(dataset, "__len__")
print("IterableDataset:", isinstance(dataset, IterableDataset),
      "| has a length:", hasattr(dataset, "__len__"))

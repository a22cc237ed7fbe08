import numpy as np
import webdataset as wds
from torch.utils.data import DataLoader, get_worker_info

with wds.ShardWriter("train-%06d.tar", maxcount=8, verbose=0) as sink:
    for i in range(32):  # 4 shards of 8 samples
        image = np.full((16, 16, 3), i, dtype=np.uint8)
        sink.write({"__key__": f"sample{i:04d}", "png": image, "cls": i})


def where_it_came_from(sample):
    shard = sample["__url__"].removesuffix(".tar")[-1]  # train-00000k
    return sample["cls"], get_worker_info().id, int(shard)


# --8<-- [start:gist]
dataset = (wds.WebDataset("train-{000000..000003}.tar", shardshuffle=False)
           .decode("rgb8").map(where_it_came_from))
loader = DataLoader(dataset.batched(4), batch_size=None, num_workers=2)
labels, shards_of_worker = [], {0: set(), 1: set()}
for batch in loader:
    for label, worker, shard in zip(*batch):  # batched() collates columns
        labels.append(int(label))
        shards_of_worker[int(worker)].add(int(shard))

assert sorted(labels) == list(range(32))  # every sample exactly once
assert shards_of_worker == {0: {0, 2}, 1: {1, 3}}  # whole shards
# --8<-- [end:gist]
print("samples read:", len(labels), "(no duplicates)")
print("shards read by each worker:",
      {w: sorted(s) for w, s in shards_of_worker.items()})
print("labels in the order the loader returned them:")
print(labels)

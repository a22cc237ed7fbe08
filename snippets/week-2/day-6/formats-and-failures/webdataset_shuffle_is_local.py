import random

import webdataset as wds

with wds.ShardWriter("train-%06d.tar", maxcount=16, verbose=0) as sink:
    for i in range(64):  # 4 shards of 16 samples, stored in order
        sink.write({"__key__": f"sample{i:04d}", "cls": i})

BUFFER = 8
dataset = (wds.WebDataset("train-{000000..000003}.tar", shardshuffle=False)
           .shuffle(BUFFER, seed=random.randrange(2**32))  # 8 samples
           .map(lambda sample: int(sample["cls"])))
order = list(dataset)

assert sorted(order) == list(range(64))
# A sample leaves the buffer only after it was read, and when the p-th
# sample leaves, at most p + BUFFER have been read: none moves far forward.
assert all(label < position + BUFFER for position, label in enumerate(order))
print("order of the first 16:", order[:16])
print("largest move towards the front:",
      max(label - position for position, label in enumerate(order)))

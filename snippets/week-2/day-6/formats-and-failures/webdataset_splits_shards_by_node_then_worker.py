import os

import webdataset as wds
from torch.utils.data import DataLoader, get_worker_info

with wds.ShardWriter("train-%06d.tar", maxcount=2, verbose=0) as sink:
    for i in range(16):  # 8 shards of 2 samples
        sink.write({"__key__": f"sample{i:04d}", "cls": i})
urls = "train-{000000..000007}.tar"


def tag(sample):
    return get_worker_info().id, sample["__url__"][-5]  # shard digit


# Two training processes, as a launcher such as torchrun describes them.
os.environ["WORLD_SIZE"] = "2"
os.environ["RANK"] = "0"
# --8<-- [start:gist]
try:  # the default refuses to guess how to split between processes
    next(iter(wds.WebDataset(urls, shardshuffle=False)))
except ValueError as error:
    refused = str(error)
assert "explicit nodesplitter" in refused
# --8<-- [end:gist]
print("default nodesplitter:", refused)

placement = {}
# --8<-- [start:gist]
for rank in (0, 1):
    os.environ["RANK"] = str(rank)
    dataset = wds.WebDataset(urls, shardshuffle=False,
                             nodesplitter=wds.split_by_node).map(tag)
# --8<-- [end:gist]
    for worker, shard in DataLoader(dataset, batch_size=None,
                                    num_workers=2):
        placement.setdefault((rank, worker), set()).add(int(shard))

# --8<-- [start:gist]
# Every shard goes to exactly one (process, worker) pair.
every_shard = sorted(s for shards in placement.values() for s in shards)
assert every_shard == list(range(8))
# --8<-- [end:gist]
for (rank, worker), shards in sorted(placement.items()):
    print(f"rank {rank}, worker {worker}: shards {sorted(shards)}")

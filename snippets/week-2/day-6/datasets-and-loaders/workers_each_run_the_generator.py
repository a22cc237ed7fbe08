from collections import Counter

from torch.utils.data import DataLoader, IterableDataset, get_worker_info


class Numbers(IterableDataset):
    def __init__(self, n, shard):
        self.n, self.shard = n, shard

    def __iter__(self):
        info = get_worker_info()  # None in the main process
        start, step = 0, 1
        # --8<-- [start:gist]
        if self.shard and info is not None:
            start, step = info.id, info.num_workers  # split the stream
        yield from range(start, self.n, step)
        # --8<-- [end:gist]


# --8<-- [start:gist]
def values(shard):
    loader = DataLoader(Numbers(6, shard), batch_size=2, num_workers=2)
    return sorted(x for batch in loader for x in batch.tolist())
# --8<-- [end:gist]


# --8<-- [start:gist]
copied, sharded = values(shard=False), values(shard=True)

# each worker holds its own copy of the dataset and runs all of __iter__
assert Counter(copied) == {x: 2 for x in range(6)}
assert sharded == list(range(6))
# --8<-- [end:gist]

print("2 workers, no sharding:", copied)
print("2 workers, sharded by get_worker_info():", sharded)

from torch.utils.data import DataLoader
from torchguide.data.workers import WorkerShardedIterable

stream = WorkerShardedIterable(range(7))  # worker k takes k, k+n, k+2n...
loader = DataLoader(stream, batch_size=2, num_workers=2)
batches = [batch.tolist() for batch in loader]
items = sorted(x for batch in batches for x in batch)

assert items == list(range(7))  # each item once
# batches are built inside each worker, and come out worker by worker
assert batches == [[0, 2], [1, 3], [4, 6], [5]]
# drop_last drops each worker's short batch
dropped = [b.tolist() for b in DataLoader(stream, batch_size=2, num_workers=2,
                                          drop_last=True)]
assert dropped == [[0, 2], [1, 3], [4, 6]]
print("batches:", batches)
print("with drop_last=True:", dropped)
print("each item once:", items == list(range(7)))

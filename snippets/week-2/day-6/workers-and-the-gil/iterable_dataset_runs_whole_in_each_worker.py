from collections import Counter

from torch.utils.data import DataLoader, IterableDataset, get_worker_info


class Stream(IterableDataset):  # e.g. lines of a log, read in order
    def __iter__(self):
        for item in range(6):
            yield item, get_worker_info().id


loader = DataLoader(Stream(), batch_size=None, num_workers=2)
items = [(int(item), int(worker)) for item, worker in loader]
per_worker = {w: [i for i, wid in items if wid == w] for w in (0, 1)}

# each worker iterates its own copy of the dataset from the start
assert per_worker == {0: list(range(6)), 1: list(range(6))}
assert Counter(i for i, _ in items) == {i: 2 for i in range(6)}
for worker, got in per_worker.items():
    print(f"worker {worker} yielded {got}")
print("every item arrives", len(items) // 6, "times")

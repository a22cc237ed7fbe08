import time

from torch.utils.data import DataLoader, Dataset


class Fast(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, index):
        return index


class CountingSampler:  # runs in the main process: counts indices handed out
    def __init__(self, n):
        self.n, self.handed_out = n, 0

    def __iter__(self):
        for index in range(self.n):
            self.handed_out += 1
            yield index


def in_flight(num_workers, prefetch_factor):
    """Batches requested from the workers but not yet consumed."""
    sampler = CountingSampler(64)
    loader = DataLoader(Fast(), sampler=sampler, num_workers=num_workers,
                        prefetch_factor=prefetch_factor)
    counts = []
    # --8<-- [start:gist]
    for consumed, _ in enumerate(loader, start=1):
        time.sleep(0.01)  # a slow training step: workers could run ahead
        counts.append(sampler.handed_out - consumed)
    # --8<-- [end:gist]
        if consumed == 6:
            return set(counts)


# --8<-- [start:gist]
# the default is 2 per worker; without workers there is nothing to prefetch
assert DataLoader(Fast(), num_workers=2).prefetch_factor == 2
assert DataLoader(Fast(), num_workers=0).prefetch_factor is None
print("default prefetch_factor: 2 with workers, None without")
for workers, factor in [(1, 2), (2, 2), (2, 4), (1, 8)]:
    counts = in_flight(workers, factor)
    assert counts == {workers * factor}  # never more, whatever the wait
    print(f"num_workers={workers}, prefetch_factor={factor}: "
          f"{counts.pop()} batches in flight")
# --8<-- [end:gist]

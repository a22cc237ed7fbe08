import os

from torch.utils.data import DataLoader, Dataset, get_worker_info

drawn_in = []  # where the sampler's indices are drawn


class Recorded(list):  # a sampler: any iterable of indices
    def __iter__(self):
        drawn_in.append(os.getpid())
        return super().__iter__()


class Indexed(Dataset):
    def __len__(self):
        return 12

    def __getitem__(self, index):
        return index, get_worker_info().id  # which worker loaded it


# --8<-- [start:gist]
loader = DataLoader(Indexed(), batch_size=2, num_workers=2,
                    sampler=Recorded(range(12)))
per_worker = {0: [], 1: []}
for indices, worker_ids in loader:
    (worker,) = set(worker_ids.tolist())  # a whole batch from one worker
    per_worker[worker].append(indices.tolist())

assert drawn_in == [os.getpid()]  # the main process draws every index
assert per_worker == {0: [[0, 1], [4, 5], [8, 9]],
                      1: [[2, 3], [6, 7], [10, 11]]}
# --8<-- [end:gist]
print("indices drawn in the main process:", drawn_in == [os.getpid()])
for worker, batches in per_worker.items():
    print(f"worker {worker} loaded batches {batches}")

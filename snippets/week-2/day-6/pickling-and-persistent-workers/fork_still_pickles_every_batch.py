import pickle

import torch
from torch.utils.data import DataLoader, Dataset

unpickled = []  # the main process's record of each Record it unpickles


def rebuild(index):  # runs where a Record is unpickled
    unpickled.append(index)
    return Record(index)


class Record:
    def __init__(self, index):
        self.index = index

    def __reduce__(self):  # pickled as a call to rebuild(index)
        return rebuild, (self.index,)


class Records(Dataset):
    pickled = 0  # counted in the process that pickles the dataset

    def __len__(self):
        return 12

    def __getitem__(self, index):
        return Record(index), torch.full((1000,), float(index))

    def __getstate__(self):
        Records.pickled += 1
        return self.__dict__


def load(num_workers):
    unpickled.clear()
    loader = DataLoader(Records(), batch_size=4, num_workers=num_workers,
                        collate_fn=lambda batch: batch,  # fine under fork
                        multiprocessing_context="fork" if num_workers else None)
    return [sample for batch in loader for sample in batch]


# --8<-- [start:gist]
in_process = load(num_workers=0)
without_workers = len(unpickled)
assert without_workers == 0  # no worker: nothing crosses a process boundary
samples = load(num_workers=2)
# fork: the dataset and the lambda reach the workers as a copy, unpickled
assert Records.pickled == 0
# but every sample comes back pickled: each Record was rebuilt here
assert sorted(unpickled) == list(range(12))
# a tensor too, its data moved to shared memory and its handle pickled
assert all(t.is_shared() for _, t in samples)
assert not any(t.is_shared() for _, t in in_process)
# --8<-- [end:gist]
pickle.dumps(Records())  # the counter works: pickling it here counts one
assert Records.pickled == 1
print("num_workers=0: Records unpickled in the main process:",
      without_workers)
print("num_workers=2, fork: the dataset pickled 0 times;", len(unpickled),
      "of 12 Records unpickled in the main process;",
      "tensors in shared memory:", all(t.is_shared() for _, t in samples))

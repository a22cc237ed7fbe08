import os

from torch.utils.data import DataLoader, Dataset


class WhichProcess(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, index):
        return os.getpid()  # the worker that loaded this sample


def worker_processes(persistent, epochs=3):
    loader = DataLoader(WhichProcess(), batch_size=2, num_workers=2,
                        persistent_workers=persistent,
                        multiprocessing_context="fork")
    return {int(pid) for _ in range(epochs) for batch in loader
            for pid in batch}


# --8<-- [start:gist]
restarted = worker_processes(persistent=False)
kept = worker_processes(persistent=True)
assert len(restarted) == 3 * 2  # two new workers every epoch
assert len(kept) == 2  # the same two workers for all three epochs
# --8<-- [end:gist]
print("workers started over 3 epochs, persistent_workers=False:",
      len(restarted))
print("workers started over 3 epochs, persistent_workers=True: ", len(kept))

import os
import warnings

import torch
from torch.utils.data import DataLoader, Dataset


class Threads(Dataset):
    def __len__(self):
        return 4

    # --8<-- [start:gist]
    def __getitem__(self, index):
        return torch.get_num_threads()  # torch's thread pool in this process
    # --8<-- [end:gist]


# --8<-- [start:gist]
main_threads = torch.get_num_threads()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    many = os.cpu_count() + 2
    in_workers = set(DataLoader(Threads(), batch_size=None, num_workers=many))

# torch gives each worker one thread: workers do not multiply thread pools
assert in_workers == {1}
too_many = [str(w.message) for w in caught if "suggested max" in str(w.message)]
assert too_many  # and it warns when the workers outnumber the cores
# --8<-- [end:gist]
print(f"os.cpu_count() = {os.cpu_count()}; torch threads: main process "
      f"{main_threads}, each of the {many} workers {in_workers.pop()}")
print("torch warns:", too_many[0].split(". Please")[0] + ".")

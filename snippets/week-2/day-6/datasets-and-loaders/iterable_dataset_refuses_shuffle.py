# docexec: raises=ValueError match="expected unspecified shuffle option"
from torch.utils.data import DataLoader, IterableDataset


class Stream(IterableDataset):
    def __iter__(self):
        return iter(range(10))


# a stream has no indices to permute, so the loader cannot shuffle it
DataLoader(Stream(), batch_size=4, shuffle=True)

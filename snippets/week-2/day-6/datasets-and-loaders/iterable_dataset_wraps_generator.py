from torch.utils.data import DataLoader, IterableDataset


class Squares(IterableDataset):
    """A streamed source: __iter__ is a generator function."""

    def __init__(self, n):
        self.n = n
        self.starts = 0

    # --8<-- [start:gist]
    def __iter__(self):  # called anew for every epoch
        self.starts += 1
        for i in range(self.n):
            yield i * i
    # --8<-- [end:gist]


# --8<-- [start:gist]
dataset = Squares(10)
loader = DataLoader(dataset, batch_size=4)
epoch1 = [b.tolist() for b in loader]
epoch2 = [b.tolist() for b in loader]

assert epoch1 == epoch2 == [[0, 1, 4, 9], [16, 25, 36, 49], [64, 81]]
assert dataset.starts == 2  # one fresh generator per epoch
# --8<-- [end:gist]
message = None
try:
    len(loader)
except TypeError as error:
    message = str(error)
assert message == "object of type 'Squares' has no len()"

print("epoch 1:", epoch1)
print("epoch 2:", epoch2)
print("generators started:", dataset.starts)
print("len(loader):", message)

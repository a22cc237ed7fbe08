from torch.utils.data import DataLoader, IterableDataset


class Once(IterableDataset):
    def __init__(self, generator):
        self.generator = generator  # a generator object, not a function

    def __iter__(self):
        return self.generator


loader = DataLoader(Once(x for x in range(6)), batch_size=4)
epochs = [[b.tolist() for b in loader] for _ in range(2)]

assert epochs[0] == [[0, 1, 2, 3], [4, 5]]
assert epochs[1] == []  # exhausted: the second epoch is silently empty

for number, batches in enumerate(epochs, 1):
    print(f"epoch {number}: {batches}")

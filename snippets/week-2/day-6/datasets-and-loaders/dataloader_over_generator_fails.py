# docexec: raises=TypeError match="object of type 'generator' has no len"
from torch.utils.data import DataLoader


def numbers():
    yield from range(10)


loader = DataLoader(numbers(), batch_size=4)  # accepted without a check
print("built:", type(loader.sampler).__name__)  # a map-style sampler
next(iter(loader))  # the sampler needs len(dataset)

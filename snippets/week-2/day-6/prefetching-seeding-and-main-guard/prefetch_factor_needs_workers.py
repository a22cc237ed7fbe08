# docexec: raises=ValueError match="prefetch_factor option could only be"
from torch.utils.data import DataLoader

# without workers nothing is loaded ahead: the option is refused, not ignored
DataLoader(range(8), batch_size=2, num_workers=0, prefetch_factor=4)

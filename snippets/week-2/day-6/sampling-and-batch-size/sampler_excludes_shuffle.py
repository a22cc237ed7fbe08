# docexec: raises=ValueError match="sampler option is mutually exclusive"
import torch
from torch.utils.data import DataLoader, WeightedRandomSampler

sampler = WeightedRandomSampler(torch.ones(10), num_samples=10)
# the sampler already decides the order: shuffle=True is refused,
# leaving shuffle out (or False) is what the loader expects
DataLoader(list(range(10)), sampler=sampler, shuffle=True)

# expect: two runs with the same seeds draw
# The mistake: a fresh generator seeded from the OS: different per worker and epoch, but never the same twice.
import numpy as np
import torch


def worker_init_fn(worker_id):
    torch.utils.data.get_worker_info().dataset.rng = np.random.default_rng()

# expect: worker 0 draws
# The mistake: a seed from the worker's id, which is the same every epoch: each epoch repeats the last one.
import numpy as np
import torch


def worker_init_fn(worker_id):
    torch.utils.data.get_worker_info().dataset.rng = np.random.default_rng(worker_id)

# expect: in epoch 1 workers 0 and 1 both draw
# The mistake: the reproducibility recipe that re-seeds NumPy's and Python's global generators, which torch
# already seeds; the generator the dataset holds is untouched, the same in every worker.
import random

import numpy as np
import torch


def worker_init_fn(worker_id):
    worker_seed = torch.initial_seed() % 2**32
    np.random.seed(worker_seed)
    random.seed(worker_seed)

import numpy as np
import torch
from torchguide.drills import check_here


def worker_init_fn(worker_id):
    info = torch.utils.data.get_worker_info()
    # info.seed is base_seed + worker_id, and the loader draws base_seed from
    # its generator every epoch: one seed per worker and epoch, and every run
    # of a loader with the same generator seed gets the same ones
    info.dataset.rng = np.random.default_rng(info.seed)


check_here("seed_worker_generators", worker_init_fn)

# expect: for labels [0, 0, 0, 1] your weights [0, 0, 0, 1] must be positive floats
# The mistake: integer division, 1 // count, which is 0 for every class of more than one sample.
import torch


def sample_weights(labels):
    return 1 // torch.bincount(labels)[labels]

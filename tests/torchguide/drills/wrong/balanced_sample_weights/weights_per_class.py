# expect: for labels [0, 0, 0, 1] your weights have shape (2,); expected (4,): WeightedRandomSampler wants one weight per sample, not per class
# The mistake the notes make: a weight for each class (weights = [0.1, 0.9]) passed to the sampler.
import torch


def sample_weights(labels):
    return 1.0 / torch.bincount(labels).double()

# expect: for labels [0, 0, 0, 1] the sampler with your weights draws the classes with probabilities {0: 0.9, 1: 0.1}; expected {0: 0.5, 1: 0.5}
# The mistake: weighting each sample by its class's count, which makes the imbalance worse.
import torch


def sample_weights(labels):
    return torch.bincount(labels)[labels].double()

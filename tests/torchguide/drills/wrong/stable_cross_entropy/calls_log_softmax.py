# expect: your cross_entropy calls torch.log_softmax; the drill asks you to write the log-softmax from elementwise operations
# The mistake: the stable part, taken from torch: log_softmax is the function the drill asks for.
import torch


def cross_entropy(logits, targets):
    return -torch.log_softmax(logits, dim=1).gather(1, targets[:, None]).mean()

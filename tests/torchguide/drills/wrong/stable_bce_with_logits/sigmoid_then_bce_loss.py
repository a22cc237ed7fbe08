# expect: for logits [1000.0] and targets [0.0] your loss is 100.0; expected 1000.0
# The mistake the notes warn of: Sigmoid then BCELoss, whose log is clamped at -100.
import torch
import torch.nn.functional as F


def bce_with_logits(logits, targets):
    return F.binary_cross_entropy(torch.sigmoid(logits), targets)

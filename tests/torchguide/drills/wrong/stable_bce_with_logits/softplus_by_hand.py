# expect: for logits [1000.0] and targets [0.0] your loss is inf; expected 1000.0
# The mistake: log(1 + exp(x)) - x*y written as it reads: exp(1000) overflows.
import torch


def bce_with_logits(logits, targets):
    return (torch.log(1 + torch.exp(logits)) - logits * targets).mean()

# expect: for logits [0.0] and targets [1.0] your bce_with_logits calls torch.nn.functional.binary_cross_entropy_with_logits; the drill asks you to write the loss from elementwise operations
# The mistake: calling the very function the drill asks to write, through the loss module.
import torch


def bce_with_logits(logits, targets):
    return torch.nn.BCEWithLogitsLoss()(logits, targets)

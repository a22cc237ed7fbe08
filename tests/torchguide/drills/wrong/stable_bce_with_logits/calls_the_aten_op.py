# expect: your bce_with_logits calls torch.binary_cross_entropy_with_logits; the drill asks you to write the loss from elementwise operations
# The mistake: torch's own loss under another of its names, which is still the function to write.
import torch


def bce_with_logits(logits, targets):
    return torch.binary_cross_entropy_with_logits(logits, targets, None, None, 1)

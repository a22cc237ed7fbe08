# expect: for logits [2.0, -3.0] and targets [0.25, 0.75] your loss is 3.9255; expected 1.9628
# The mistake: summing the per-element losses; BCEWithLogitsLoss averages by default.
import torch


def bce_with_logits(logits, targets):
    per_element = logits.clamp(min=0) - logits * targets + torch.log1p(torch.exp(-logits.abs()))
    return per_element.sum()

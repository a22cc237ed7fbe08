# expect: for logits [[1000.0, 999.0], [-1000.0, -1001.0]] (torch.float32) and targets [0, 1] your loss is -inf; expected 0.8133
# The mistake: one maximum over the whole batch: the second row, 2000 below it, underflows to 0.
import torch


def cross_entropy(logits, targets):
    shifted = logits - logits.max()
    log_probs = shifted - torch.log(torch.exp(shifted).sum(dim=1, keepdim=True))
    return -log_probs.gather(1, targets[:, None]).mean()

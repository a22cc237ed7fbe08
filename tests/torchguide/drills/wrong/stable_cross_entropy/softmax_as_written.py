# expect: for logits [[1000.0, 0.0, -1000.0]] (torch.float32) and targets [2] your loss is inf; expected 2000.0
# The mistake: the softmax as the formula reads, exp(x) / sum(exp(x)): exp(1000) overflows to inf.
import torch


def cross_entropy(logits, targets):
    probs = torch.exp(logits) / torch.exp(logits).sum(dim=1, keepdim=True)
    return -torch.log(probs.gather(1, targets[:, None])).mean()

# expect: for logits (4, 4), targets [0, 1, 3, 2], label_smoothing 0, class weights, ignore_index -100 (torch.float32, seed 3) your loss is
# The mistake: a weighted sum divided by the number of kept rows; torch divides by the sum of their weights.
import torch


def cross_entropy(logits, targets, weight, ignore_index, label_smoothing):
    classes = logits.shape[-1]
    logp = logits.log_softmax(dim=-1)
    keep = targets != ignore_index
    safe = torch.where(keep, targets, 0)
    if weight is None:
        weight = torch.ones(classes, dtype=logits.dtype)
    nll = -logp.gather(1, safe[:, None]).squeeze(1) * weight[safe]
    uniform = -(logp * weight).sum(dim=1) / classes
    loss = ((1 - label_smoothing) * nll + label_smoothing * uniform) * keep
    return loss.sum() / keep.sum()

# expect: for logits (4, 5), targets [0, 2, 2, 3], label_smoothing 0.1, no weights, ignore_index -100 (torch.float32, seed 1) your loss is
# The mistake: the smoothed mass eps spread over the C - 1 other classes; torch spreads eps / C over all C, the target included.
import torch


def cross_entropy(logits, targets, weight, ignore_index, label_smoothing):
    classes = logits.shape[-1]
    logp = logits.log_softmax(dim=-1)
    keep = targets != ignore_index
    safe = torch.where(keep, targets, 0)
    if weight is None:
        weight = torch.ones(classes, dtype=logits.dtype)
    row_weight = weight[safe] * keep
    target_logp = logp.gather(1, safe[:, None]).squeeze(1)
    others = -((logp * weight).sum(dim=1) - target_logp * weight[safe]) / max(classes - 1, 1)
    nll = -target_logp * weight[safe]
    loss = ((1 - label_smoothing) * nll + label_smoothing * others) * keep
    return loss.sum() / row_weight.sum()

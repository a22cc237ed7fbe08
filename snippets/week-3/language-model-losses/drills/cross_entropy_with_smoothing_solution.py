import torch
from torchguide.drills import check_here


def cross_entropy(logits, targets, weight, ignore_index: int, label_smoothing):
    """F.cross_entropy with smoothing, class weights and ignored rows."""
    classes = logits.shape[-1]
    logp = logits.log_softmax(dim=-1)
    keep = targets != ignore_index
    safe = torch.where(keep, targets, 0)  # any valid class, zeroed below
    if weight is None:
        weight = torch.ones(classes, dtype=logits.dtype)
    row_weight = weight[safe] * keep  # 0 for an ignored row
    nll = -logp.gather(1, safe[:, None]).squeeze(1) * row_weight
    uniform = (
        -(logp * weight).sum(dim=1) / classes * keep
    )  # each class weighted
    total = row_weight.sum()  # 0 when all are ignored: NaN, as torch gives
    eps = label_smoothing
    return ((1 - eps) * nll.sum() + eps * uniform.sum()) / total


check_here("cross_entropy_with_smoothing", cross_entropy)

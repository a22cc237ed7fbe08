# expect: your gradient for the shards differs
# The mistake: the statistics computed without a gradient, as running statistics are.
import torch


def sync_batch_stats(counts, means, variances):
    with torch.no_grad():
        weights = counts.to(means.dtype)[:, None] / counts.sum()
        mean = (weights * means).sum(0)
        var = (weights * (variances + means**2)).sum(0) - mean**2
    return mean, var

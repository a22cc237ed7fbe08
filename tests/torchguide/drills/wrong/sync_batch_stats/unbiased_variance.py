# expect: your variance is
# The mistake: the unbiased variance, which BatchNorm keeps for running_var but does not normalize by.
def sync_batch_stats(counts, means, variances):
    n = counts.to(means.dtype)[:, None]
    mean = (n * means).sum(0) / n.sum()
    var = (n * (variances + means**2)).sum(0) / n.sum() - mean**2
    return mean, var * n.sum() / (n.sum() - 1)

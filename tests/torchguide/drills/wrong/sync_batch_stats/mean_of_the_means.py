# expect: for 3 ranks with batches of [3, 5, 1], 2 channels (torch.float32, seed 1) your mean is
# The mistake: every rank weighted alike, right only for equal batch sizes.
def sync_batch_stats(counts, means, variances):
    mean = means.mean(0)
    var = (variances + means**2).mean(0) - mean**2
    return mean, var

def sync_batch_stats(counts, means, variances):
    """SyncBatchNorm's statistics, combined from every rank's."""
    raise NotImplementedError

def worker_items(n_items, worker_info):
    """Sharding an IterableDataset across workers."""
    raise NotImplementedError

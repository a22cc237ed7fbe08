def worker_shards(shards, rank, world_size, worker_id, num_workers):
    """Which shards a worker of each rank reads."""
    raise NotImplementedError

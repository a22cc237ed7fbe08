# expect: for 5 shards, world_size=2 and num_workers=2 no worker reads shards ['04.tar']
# The mistake: contiguous blocks of len(shards) // (world_size * num_workers), which leave out the remainder.
def worker_shards(shards, rank, world_size, worker_id, num_workers):
    per_worker = len(shards) // (world_size * num_workers)
    start = (rank * num_workers + worker_id) * per_worker
    return list(shards[start : start + per_worker])

# expect: for 6 shards, world_size=2 and num_workers=2 your ranks read [4, 2] shards
# The mistake: one split into world_size * num_workers shares, numbered rank-major; the leftover shards all go to rank 0.
def worker_shards(shards, rank, world_size, worker_id, num_workers):
    return list(shards[rank * num_workers + worker_id :: world_size * num_workers])

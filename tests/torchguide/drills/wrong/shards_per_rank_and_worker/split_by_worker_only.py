# expect: for 8 shards, world_size=2 and num_workers=2 shard '00.tar' is read by (rank 0, worker 0) and (rank 1, worker 0)
# The mistake: the split of one process's loader, used unchanged with several processes; every rank reads the same shards.
def worker_shards(shards, rank, world_size, worker_id, num_workers):
    return list(shards[worker_id::num_workers])

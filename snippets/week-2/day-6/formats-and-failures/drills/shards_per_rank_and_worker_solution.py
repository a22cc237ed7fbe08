from torchguide.drills import check_here


def worker_shards(shards, rank, world_size, worker_id, num_workers):
    # by process first, as wds.split_by_node does, then by worker within the
    # process, as wds.split_by_worker does
    rank_shards = shards[rank::world_size]
    return list(rank_shards[worker_id::num_workers])


check_here("shards_per_rank_and_worker", worker_shards)

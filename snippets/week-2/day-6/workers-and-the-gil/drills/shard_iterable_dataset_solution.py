from torchguide.drills import check_here


def worker_items(n_items, worker_info):
    if worker_info is None:  # num_workers=0: the main process reads everything
        return list(range(n_items))
    return list(range(worker_info.id, n_items, worker_info.num_workers))


check_here("shard_iterable_dataset", worker_items)

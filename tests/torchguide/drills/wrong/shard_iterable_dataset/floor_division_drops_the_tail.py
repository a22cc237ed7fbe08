# expect: for 10 items and num_workers=3 your workers yield [[0, 1, 2], [3, 4, 5], [6, 7, 8]]; every index in range(10) must be read exactly once (missing: [9])
# The mistake: contiguous blocks of n_items // num_workers, which leave out the remainder.
def worker_items(n_items, worker_info):
    if worker_info is None:
        return list(range(n_items))
    per_worker = n_items // worker_info.num_workers
    start = worker_info.id * per_worker
    return list(range(start, start + per_worker))

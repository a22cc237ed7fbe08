# expect: for 10 items and num_workers=0 your worker_items raised AttributeError
# The mistake: get_worker_info() is None with num_workers=0, and None has no .id.
def worker_items(n_items, worker_info):
    return list(range(worker_info.id, n_items, worker_info.num_workers))

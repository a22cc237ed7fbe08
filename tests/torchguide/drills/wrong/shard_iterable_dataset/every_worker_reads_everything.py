# expect: for 10 items and num_workers=2 items [0, 1, 2, 3, 4, 5] are read by more than one worker
# The mistake: no sharding at all; each worker's copy of the dataset yields every record.
def worker_items(n_items, worker_info):
    return list(range(n_items))

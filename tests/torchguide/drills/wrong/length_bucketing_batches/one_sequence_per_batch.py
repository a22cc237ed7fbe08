# expect: for lengths [5, 1, 5, 1] and max_tokens=10 your 4 batches [[0], [1], [2], [3]] are more than the 2 that filling batches greedily in order of length gives
# The mistake: a batch per sequence: no padding at all, and as many steps as sequences.
def bucket_batches(lengths, max_tokens):
    return [[index] for index in range(len(lengths))]

# expect: for lengths [5, 1, 5, 1] and max_tokens=10 your batches [[0, 1], [2, 3]] pad to 20 tokens in all; batching in order of length gives [[1, 3], [0, 2]], 12 tokens
# The mistake: filling batches in index order, so short and long sequences share a batch.
def bucket_batches(lengths, max_tokens):
    batches, batch, longest = [], [], 0
    for index, length in enumerate(lengths):
        grown = max(longest, length)
        if batch and grown * (len(batch) + 1) > max_tokens:
            batches.append(batch)
            batch, grown = [], length
        batch.append(index)
        longest = grown
    return batches + ([batch] if batch else [])

# expect: for lengths [12, 15, 11] and max_tokens=10 your batches [[], [2], [0], [1]] include an empty batch
# The mistake: closing the current batch whenever the next sequence does not fit, even an empty one.
def bucket_batches(lengths, max_tokens):
    batches, batch, longest = [], [], 0
    for index in sorted(range(len(lengths)), key=lambda i: lengths[i]):
        grown = max(longest, lengths[index])
        if grown * (len(batch) + 1) > max_tokens:
            batches.append(batch)
            batch, grown = [], lengths[index]
        batch.append(index)
        longest = grown
    return batches + ([batch] if batch else [])

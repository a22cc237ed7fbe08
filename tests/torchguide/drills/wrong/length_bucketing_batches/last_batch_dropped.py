# expect: for lengths [4] and max_tokens=4 your batches [] hold indices []; expected each of range(1) exactly once
# The mistake: appending a batch only when the next sequence does not fit, which loses the last one.
def bucket_batches(lengths, max_tokens):
    batches, batch, longest = [], [], 0
    for index in sorted(range(len(lengths)), key=lambda i: lengths[i]):
        grown = max(longest, lengths[index])
        if batch and grown * (len(batch) + 1) > max_tokens:
            batches.append(batch)
            batch, grown = [], lengths[index]
        batch.append(index)
        longest = grown
    return batches

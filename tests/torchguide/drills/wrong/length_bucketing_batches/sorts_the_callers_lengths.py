# expect: your bucket_batches changed its argument lengths[0]; leave it as it was
# The mistake: sorting the caller's list in place to find the order, which reorders its lengths.
def bucket_batches(lengths, max_tokens):
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    lengths.sort()
    batches, batch, longest = [], [], 0
    for position, index in enumerate(order):
        grown = max(longest, lengths[position])
        if batch and grown * (len(batch) + 1) > max_tokens:
            batches.append(batch)
            batch, grown = [], lengths[position]
        batch.append(index)
        longest = grown
    return batches + ([batch] if batch else [])

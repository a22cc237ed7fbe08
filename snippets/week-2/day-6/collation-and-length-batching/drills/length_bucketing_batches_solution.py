from torchguide.drills import check_here


def bucket_batches(lengths, max_tokens):
    batches, batch, longest = [], [], 0
    # in order of length, so that a batch's sequences pad to about the same size
    for index in sorted(range(len(lengths)), key=lambda i: lengths[i]):
        grown = max(longest, lengths[index])
        if batch and grown * (len(batch) + 1) > max_tokens:
            batches.append(batch)
            batch, grown = [], lengths[index]
        batch.append(index)
        longest = grown
    if batch:  # the last batch, however small
        batches.append(batch)
    return batches


check_here("length_bucketing_batches", bucket_batches)

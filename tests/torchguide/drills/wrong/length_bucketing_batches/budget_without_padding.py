# expect: for lengths [5, 1, 5, 1] and max_tokens=10 your batch [1, 3, 0] pads to 3 x 5 = 15 tokens, over max_tokens=10
# The mistake: counting the sequences' own tokens against the budget, not the padded batch.
def bucket_batches(lengths, max_tokens):
    batches, batch, tokens = [], [], 0
    for index in sorted(range(len(lengths)), key=lambda i: lengths[i]):
        if batch and tokens + lengths[index] > max_tokens:
            batches.append(batch)
            batch, tokens = [], 0
        batch.append(index)
        tokens += lengths[index]
    return batches + ([batch] if batch else [])

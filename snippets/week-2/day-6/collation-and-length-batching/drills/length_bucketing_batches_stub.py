def bucket_batches(lengths, max_tokens):
    """Batches of similar length under a token budget."""
    raise NotImplementedError

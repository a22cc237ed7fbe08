def sampling_distribution(logits, temperature, top_k, top_p):
    """The distribution that top-k and top-p sampling draw from, with a
    temperature."""
    raise NotImplementedError

def cross_entropy(logits, targets, weight, ignore_index, label_smoothing):
    """Cross-entropy with label smoothing, an ignored index and class
    weights."""
    raise NotImplementedError

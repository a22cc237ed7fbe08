# expect: calls Tensor.logsumexp; the drill asks you to write the log-softmax from elementwise operations
# The mistake: logsumexp does the max-subtraction the drill is about.
def cross_entropy(logits, targets):
    return (logits.logsumexp(dim=1) - logits.gather(1, targets[:, None]).squeeze(1)).mean()

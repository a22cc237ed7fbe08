# expect: for logits (2, 8), temperature 1, top_k 3, top_p 1 (seed 2) your distribution differs at
# The mistake: the dropped tokens' probabilities set to 0 after one softmax, and the rest left as they were: rows sum to less than 1.
import torch


def sampling_distribution(logits, temperature, top_k, top_p):
    probabilities = (logits / temperature).softmax(dim=-1)
    if top_k > 0:
        kth = probabilities.topk(min(top_k, probabilities.shape[-1]), dim=-1).values[..., -1:]
        probabilities = probabilities.masked_fill(probabilities < kth, 0.0)
    if top_p < 1.0:
        ranked, order = probabilities.sort(dim=-1, descending=True)
        drop = torch.zeros_like(ranked, dtype=torch.bool)
        drop.scatter_(-1, order, ranked.cumsum(dim=-1) - ranked >= top_p)
        probabilities = probabilities.masked_fill(drop, 0.0)
    return probabilities

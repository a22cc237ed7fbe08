# expect: for logits (1, 4), temperature 2, top_k 10, top_p 0.9 (seed 5, a top_k over the vocabulary) your distribution drops token 1 of row 0, which the filters keep: row 0 keeps tokens [0, 1, 2, 3]
# The mistake: the temperature applied after the filters: top-p then chooses its tokens from the untempered distribution.
import torch


def sampling_distribution(logits, temperature, top_k, top_p):
    scores = logits.clone()
    if top_k > 0:
        kth = scores.topk(min(top_k, scores.shape[-1]), dim=-1).values[..., -1:]
        scores = scores.masked_fill(scores < kth, float("-inf"))
    if top_p < 1.0:
        ranked, order = scores.softmax(dim=-1).sort(dim=-1, descending=True)
        drop = torch.zeros_like(ranked, dtype=torch.bool)
        drop.scatter_(-1, order, ranked.cumsum(dim=-1) - ranked >= top_p)
        scores = scores.masked_fill(drop, float("-inf"))
    return (scores / temperature).softmax(dim=-1)

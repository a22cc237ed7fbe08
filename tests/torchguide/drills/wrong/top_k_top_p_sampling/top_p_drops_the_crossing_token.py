# expect: for logits (3, 10), temperature 1, top_k 0, top_p 0.6 (seed 3) your distribution drops token 6 of row 0, which the filters keep: row 0 keeps tokens [2, 6, 7]
# The mistake: dropping where the cumulative sum itself reaches top_p, which drops the token that crosses it (and can drop them all).
import torch


def sampling_distribution(logits, temperature, top_k, top_p):
    scores = logits / temperature
    if top_k > 0:
        kth = scores.topk(min(top_k, scores.shape[-1]), dim=-1).values[..., -1:]
        scores = scores.masked_fill(scores < kth, float("-inf"))
    if top_p < 1.0:
        ranked, order = scores.softmax(dim=-1).sort(dim=-1, descending=True)
        drop = torch.zeros_like(ranked, dtype=torch.bool)
        drop.scatter_(-1, order, ranked.cumsum(dim=-1) > top_p)
        scores = scores.masked_fill(drop, float("-inf"))
    return scores.softmax(dim=-1)

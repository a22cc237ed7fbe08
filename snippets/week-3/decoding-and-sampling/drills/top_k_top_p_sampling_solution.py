import torch
from torchguide.drills import check_here


def sampling_distribution(logits, temperature: float, top_k: int, top_p: float):
    """Temperature, then top-k, then top-p; one softmax over what is kept."""
    scores = logits / temperature
    if top_k > 0:
        k = min(top_k, scores.shape[-1])
        kth = scores.topk(k, dim=-1).values[..., -1:]
        scores = scores.masked_fill(scores < kth, float("-inf"))
    if top_p < 1.0:
        ranked, order = scores.softmax(dim=-1).sort(dim=-1, descending=True)
        above = (
            ranked.cumsum(dim=-1) - ranked
        )  # mass of the tokens ranked above
        drop = torch.zeros_like(above, dtype=torch.bool)
        drop.scatter_(-1, order, above >= top_p)  # back to vocabulary order
        scores = scores.masked_fill(drop, float("-inf"))
    return scores.softmax(dim=-1)


check_here("top_k_top_p_sampling", sampling_distribution)

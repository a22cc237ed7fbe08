import torch.nn.functional as F
from torchguide.drills import check_here


def route(x, w_router, k):
    """Top-k experts per token, their weights, and Switch's balancing loss."""
    probs = F.linear(x, w_router).softmax(dim=-1)  # (T, E)
    top, indices = probs.topk(k, dim=-1)  # sorted, descending
    weights = top / top.sum(dim=-1, keepdim=True)  # renormalized over k
    experts = w_router.shape[0]
    counts = F.one_hot(indices, experts).sum(dim=(0, 1))  # no gradient
    f = counts.to(probs.dtype) / indices.numel()  # of the T*k assignments
    aux_loss = experts * (f * probs.mean(dim=0)).sum()
    return weights, indices, aux_loss


check_here("moe_top_k_router", route)

# expect: for 6 tokens of width 4, 4 experts, top-1 (torch.float32, seed 0) your aux_loss
# The mistake: the mean probability used for f too, E * sum(P**2): differentiable, but another loss.
import torch.nn.functional as F


def route(x, w_router, k):
    probs = F.linear(x, w_router).softmax(dim=-1)
    top, indices = probs.topk(k, dim=-1)
    p = probs.mean(dim=0)
    return top / top.sum(dim=-1, keepdim=True), indices, w_router.shape[0] * (p * p).sum()

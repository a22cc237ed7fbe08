# expect: for 6 tokens of width 4, 4 experts, top-1 (torch.float32, seed 0) your aux_loss has no gradient path
# The mistake: the loss computed from detached probabilities, so it never trains the router.
import torch.nn.functional as F


def route(x, w_router, k):
    probs = F.linear(x, w_router).softmax(dim=-1)
    top, indices = probs.topk(k, dim=-1)
    experts = w_router.shape[0]
    f = F.one_hot(indices, experts).sum(dim=(0, 1)).to(probs.dtype) / indices.numel()
    aux = experts * (f * probs.detach().mean(dim=0)).sum()
    return top / top.sum(dim=-1, keepdim=True), indices, aux

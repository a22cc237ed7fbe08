import torch
import torch.nn.functional as F

logits, targets, eps = torch.randn(4, 5), torch.tensor([1, 0, 4, 2]), 0.1
# --8<-- [start:gist]
smoothed = F.one_hot(targets, 5) * (1 - eps) + eps / 5  # eps/C on every class
by_target = F.cross_entropy(logits, targets, label_smoothing=eps)
by_probs = F.cross_entropy(logits, smoothed)  # probability targets
assert torch.allclose(by_target, by_probs)
# --8<-- [end:gist]
print("the target keeps", 1 - eps + eps / 5, "each other class", eps / 5)
assert smoothed.sum(-1).allclose(torch.ones(4))

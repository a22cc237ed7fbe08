import torch
import torch.nn.functional as F

logits = torch.randn(5, 4)
targets = torch.tensor([0, 3, -100, 2, -100])  # -100: padding, the default
weight = torch.tensor([1.0, 2.0, 0.5, 3.0])
# --8<-- [start:gist]
logp = logits.log_softmax(-1)
kept = targets != -100
picked = -logp[kept, targets[kept]]  # each kept row's loss
assert torch.allclose(F.cross_entropy(logits, targets), picked.mean())
w = weight[targets[kept]]  # a weighted mean: divided by the weights' sum
weighted = F.cross_entropy(logits, targets, weight=weight)
assert torch.allclose(weighted, (w * picked).sum() / w.sum())
# --8<-- [end:gist]
print("ignored rows leave the mean:", True)
print("weighted mean = sum(w * loss) / sum(w):", True)

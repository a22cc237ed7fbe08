import torch
import torch.nn.functional as F

logits, targets = torch.randn(3, 4) * 50, torch.tensor([2, 0, 3])
# --8<-- [start:gist]
fused = F.cross_entropy(logits, targets)  # takes logits, not probabilities
two_steps = F.nll_loss(logits.log_softmax(-1), targets)
on_probabilities = F.cross_entropy(logits.softmax(-1), targets)  # a bug
# --8<-- [end:gist]
assert torch.allclose(fused, two_steps)
assert not torch.allclose(fused, on_probabilities)
print(f"cross_entropy(logits):        {fused.item():.4f}")
print(f"nll_loss(log_softmax(logits)): {two_steps.item():.4f}")
print(f"cross_entropy(softmax(...)):   {on_probabilities.item():.4f}")

import torch
from torch import nn

# target 1 and a very negative logit: sigmoid is tiny but not zero
# --8<-- [start:gist]
logits = torch.tensor([-20.0, -30.0, -60.0], requires_grad=True)
p = torch.sigmoid(logits)
p.retain_grad()
nn.BCELoss(reduction="sum")(p, torch.ones(3)).backward()

x = logits.detach().clone().requires_grad_()
nn.BCEWithLogitsLoss(reduction="sum")(x, torch.ones(3)).backward()
# --8<-- [end:gist]

# the LOSS is still right: float32 holds these tiny probabilities
loss = nn.BCELoss(reduction="none")(p.detach(), torch.ones(3))
assert torch.allclose(loss, -logits.detach(), rtol=1e-5)
# exact gradient is sigmoid(z) - 1, i.e. about -1 for all three
assert torch.allclose(x.grad, -torch.ones(3))
# BCELoss's backward divides by max(p * (1 - p), 1e-12): d loss / d p
# is floored at -1e12 instead of -1/p ...
floor = (p - 1) / torch.clamp(p * (1 - p), min=1e-12)
assert torch.allclose(p.grad, floor)
# --8<-- [start:gist]
# ... so once p < 1e-12 (logit below about -27.6) the chain rule through
# sigmoid (times p * (1 - p)) no longer gives -1 but shrinks toward 0
assert abs(logits.grad[0] + 1) < 1e-6
assert logits.grad[1].abs() < 0.1 and logits.grad[2].abs() < 1e-10
# --8<-- [end:gist]
print("sigmoid(z)             :", [f"{v:.1e}" for v in p.tolist()])
print("Sigmoid+BCELoss   loss :", [f"{v:.1f}" for v in loss.tolist()])
print("Sigmoid+BCELoss   grad :", [f"{g:.1e}" for g in logits.grad.tolist()])
print("BCEWithLogitsLoss grad :", [f"{g:.1e}" for g in x.grad.tolist()])

import math

import matplotlib.pyplot as plt
import torch
from torch import nn

z = torch.linspace(-5, 120, 1001, requires_grad=True)
target = torch.zeros_like(z)
# --8<-- [start:gist]
naive = nn.BCELoss(reduction="none")(torch.sigmoid(z), target)
(naive_grad,) = torch.autograd.grad(naive.sum(), z)
fused = nn.BCEWithLogitsLoss(reduction="none")(z, target)
(fused_grad,) = torch.autograd.grad(fused.sum(), z)

# wrong from logit 24 ln 2 = 16.636 on: loss frozen at 100, gradient 0
stuck = z.detach() > 24 * math.log(2)
assert torch.equal(naive[stuck], torch.full_like(naive[stuck], 100.0))
assert torch.equal(naive_grad[stuck], torch.zeros_like(z[stuck]))
assert torch.allclose(fused, nn.functional.softplus(z), atol=1e-5)
# --8<-- [end:gist]
print("loss 100 and gradient 0 for every logit of the grid above",
      f"{24 * math.log(2):.3f}")

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(4.8, 3))
zs = z.detach()
ax1.plot(zs, fused.detach(), label="BCEWithLogitsLoss")
ax1.plot(zs, naive.detach(), "--", label="Sigmoid + BCELoss")
ax1.set(title="loss, target 0", xlabel="logit", ylabel="loss")
ax2.plot(zs, fused_grad, label="BCEWithLogitsLoss")
ax2.plot(zs, naive_grad, "--", label="Sigmoid + BCELoss")
ax2.set(title="d loss / d logit", xlabel="logit", ylabel="gradient")
fig.legend(*ax1.get_legend_handles_labels(), loc="lower center", ncol=2)
fig.tight_layout(rect=(0, 0.1, 1, 1))  # room for the legend below

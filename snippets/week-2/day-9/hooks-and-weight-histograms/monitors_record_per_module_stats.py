import torch
from torch import nn
from torchguide.debug.hooks import ActivationMonitor, GradientMonitor

model = nn.Sequential(
    nn.Linear(10, 32), nn.ReLU(inplace=True),
    nn.Linear(32, 32), nn.ReLU(inplace=True),
    nn.Linear(32, 1),
)
x, y = torch.randn(64, 10), torch.randn(64, 1)

# --8<-- [start:gist]
with ActivationMonitor(model) as acts, GradientMonitor(model) as grads:
    nn.functional.mse_loss(model(x), y).backward()

for name, stats in grads.stats.items():
    (weight_norm,) = stats.param_grad_norms["weight"]
    assert abs(weight_norm - model[int(name)].weight.grad.norm()) < 1e-6

# Both context managers removed their hooks: this pass is not recorded.
nn.functional.mse_loss(model(x), y).backward()
assert not acts.active and not grads.active
assert all(s.calls == 1 for s in acts.stats.values())
assert all(len(s.output_grad_norms) == 1 for s in grads.stats.values())
# --8<-- [end:gist]

print("activations   mean   std  zeros  dead units")
for name, s in acts.stats.items():
    print(f"ReLU {name:>2}    {s.mean:5.2f} {s.std:5.2f}  "
          f"{s.zero_fraction:4.0%}  {s.dead_count}/{s.dead.numel()}")
print("gradients     |d loss/d output|  |d loss/d weight|")
for name, s in grads.stats.items():
    print(f"Linear {name:>2}   {s.output_grad_norms[0]:16.4f}"
          f"  {s.param_grad_norms['weight'][0]:16.4f}")

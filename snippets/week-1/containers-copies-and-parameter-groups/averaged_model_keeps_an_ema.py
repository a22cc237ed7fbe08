import torch
from torch import nn
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

decay = 0.9
model = nn.Linear(3, 1)
# --8<-- [start:gist]
ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(decay))
history = []
for _ in range(4):
    with torch.no_grad():
        model.weight.add_(torch.randn_like(model.weight))  # "a step"
    history.append(model.weight.detach().clone())
    ema.update_parameters(model)  # the first call copies
# --8<-- [end:gist]
expected = history[0]
for weight in history[1:]:
    expected = decay * expected + (1 - decay) * weight
assert torch.allclose(ema.module.weight, expected, atol=1e-6)
assert int(ema.n_averaged) == 4
print("after 4 updates, n_averaged =", int(ema.n_averaged))
print("ema weight:         ", ema.module.weight.detach())
print("by the formula:     ", expected)
print("the model's weight: ", model.weight.detach())

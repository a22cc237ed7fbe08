# docexec: show=step
import torch
from torch import nn

model = nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
inputs, targets = torch.randn(8, 3), torch.randn(8, 1)
before = model.weight.detach().clone()

# --8<-- [start:step]
optimizer.zero_grad()
loss = nn.functional.mse_loss(model(inputs), targets)
loss.backward()
optimizer.step()
# --8<-- [end:step]

assert not torch.equal(before, model.weight)
print(f"loss before the step: {loss.item():.4f}")
after = nn.functional.mse_loss(model(inputs), targets).item()
assert after < loss.item()
print(f"loss after the step:  {after:.4f}")

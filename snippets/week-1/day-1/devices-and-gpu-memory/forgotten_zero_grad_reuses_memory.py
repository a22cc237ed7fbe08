import torch
from torch import nn

layer = nn.Linear(1000, 1000)
opt = torch.optim.SGD(layer.parameters(), lr=0.0)
x = torch.randn(8, 1000)

# --8<-- [start:gist]
layer(x).sum().backward()
first = layer.weight.grad.clone()
ptr = layer.weight.grad.data_ptr()
for _ in range(9):  # nine more steps, zero_grad forgotten
    layer(x).sum().backward()

# Forgetting zero_grad makes gradients WRONG (summed), not BIGGER in memory:
# backward adds into the same .grad tensor.
assert layer.weight.grad.data_ptr() == ptr
assert torch.allclose(layer.weight.grad, 10 * first)
# --8<-- [end:gist]
print("same .grad storage after 10 backward calls:",
      layer.weight.grad.data_ptr() == ptr)
print("grad / first grad:",
      round((layer.weight.grad / first).mean().item(), 3))

# zero_grad() defaults to set_to_none=True: the gradient memory is released
# until the next backward allocates it again.
# --8<-- [start:gist]
opt.zero_grad()
assert layer.weight.grad is None
# --8<-- [end:gist]
print("after opt.zero_grad(): weight.grad is", layer.weight.grad)

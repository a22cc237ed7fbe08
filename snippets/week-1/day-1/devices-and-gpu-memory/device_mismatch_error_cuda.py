# docexec: cuda
# docexec: raises=RuntimeError
# docexec: match="Expected all tensors to be on the same device, but .*cpu"
import torch

model = torch.nn.Linear(3, 2).to("cuda")
batch_x = torch.randn(4, 3)  # forgot batch_x = batch_x.to("cuda")

assert model.weight.is_cuda and not batch_x.is_cuda
model(batch_x)

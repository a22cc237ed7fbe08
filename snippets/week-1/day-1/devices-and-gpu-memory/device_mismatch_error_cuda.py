# docexec: cuda
# docexec: raises=RuntimeError
# docexec: match="Expected all tensors to be on the same device, but .*cpu"
import torch

# what may come from the CPU: a 0-dim tensor as a scalar, an index tensor
g = torch.zeros(4, 3, device="cuda")
idx = torch.tensor([3, 0])  # on the CPU
assert (g * torch.tensor(2.0)).is_cuda and g[idx].is_cuda
g[idx] = torch.ones(2, 3, device="cuda")
assert g.sum().item() == 6
print("0-dim CPU scalar, CPU index tensor (read and write): accepted")

model = torch.nn.Linear(3, 2).to("cuda")
batch_x = torch.randn(4, 3)  # forgot batch_x = batch_x.to("cuda")
assert model.weight.is_cuda and not batch_x.is_cuda
model(batch_x)

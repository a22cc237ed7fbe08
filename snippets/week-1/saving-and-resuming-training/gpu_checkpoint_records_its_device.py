# docexec: cuda
import torch
from torch import nn

model = nn.Linear(4, 2).cuda()
torch.save(model.state_dict(), "trained_on_gpu.pt")

locations = []  # the device each storage was saved from
torch.load("trained_on_gpu.pt", map_location=lambda storage, location:
           locations.append(location) or storage)
assert locations == ["cuda:0", "cuda:0"]
restored = torch.load("trained_on_gpu.pt")  # back onto the GPU
assert restored["weight"].device.type == "cuda"
on_cpu = torch.load("trained_on_gpu.pt", map_location="cpu")
assert on_cpu["weight"].device.type == "cpu"
print("saved from:", locations)
print("torch.load:", restored["weight"].device,
      "| map_location='cpu':", on_cpu["weight"].device)

# load_state_dict copies into the model's own tensors, on the model's device
cpu_model = nn.Linear(4, 2)
cpu_model.load_state_dict(restored)
assert cpu_model.weight.device.type == "cpu"
assert torch.equal(cpu_model.weight, model.weight.cpu())
print("a CUDA state_dict loaded into a CPU model stays on:",
      cpu_model.weight.device)

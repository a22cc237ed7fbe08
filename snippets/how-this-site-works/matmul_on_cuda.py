# docexec: cuda
import torch

a = torch.randn(1024, 1024, device="cuda")
b = torch.randn(1024, 1024, device="cuda")
c = a @ b
assert c.device.type == "cuda"
print(torch.cuda.get_device_name(), c.device, c.shape)

import torch
import torch.nn.functional as F
from torch._subclasses.fake_tensor import FakeTensorMode

# Fake tensors have a device, shape and dtype but no data (torch.compile
# traces programs with them) and check devices like real tensors do, so a
# machine without a GPU can show a GPU's device error
with FakeTensorMode():
    weight = torch.randn(2, 3, device="cuda")  # a layer moved to the GPU
    bias = torch.randn(2, device="cuda")
    batch = torch.randn(4, 3)  # forgot batch = batch.to("cuda")
    try:
        F.linear(batch, weight, bias)
    except RuntimeError as e:
        error = e
    fixed = F.linear(torch.randn(4, 3, device="cuda"), weight, bias)

message = str(error)
assert message.startswith("Expected all tensors to be on the same device")
assert "cpu" in message and "cuda:0" in message
assert fixed.device == torch.device("cuda", 0)
print("RuntimeError:", message)
print("with the batch on the GPU too:", fixed.device, tuple(fixed.shape))

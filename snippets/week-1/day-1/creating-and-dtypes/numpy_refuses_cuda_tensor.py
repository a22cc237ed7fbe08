# docexec: cuda
import torch

x = torch.ones(3, device="cuda")
try:
    x.numpy()
    raise AssertionError("expected a TypeError")
except TypeError as e:
    assert "Use Tensor.cpu()" in str(e)
    print(e)

arr = x.cpu().numpy()  # an explicit device-to-host copy
arr[0] = 5.0
assert x[0].item() == 1.0  # the GPU tensor is untouched
print("host copy:", arr, "| device tensor:", x)

import numpy as np
import torch

x = torch.arange(4.0)
# no `.tensor()` method: the factory is the function torch.tensor
assert not hasattr(x, "tensor") and callable(torch.tensor)
try:
    x.tensor()
except AttributeError as e:
    print("x.tensor():", e)

# torch.tensor(data) always copies, even a tensor or a NumPy array ...
a = np.arange(4.0)
copied = torch.tensor(a)
assert copied.data_ptr() != a.ctypes.data
# ... while torch.as_tensor and torch.from_numpy share the array's memory
shared = torch.as_tensor(a)
assert shared.data_ptr() == a.ctypes.data
a[0] = 100.0
print("torch.tensor(a)[0]:", copied[0].item(),
      "| torch.as_tensor(a)[0]:", shared[0].item())

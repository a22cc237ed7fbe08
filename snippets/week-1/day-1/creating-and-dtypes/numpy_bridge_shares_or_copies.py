import numpy as np
import torch

arr = np.zeros(3)  # NumPy's default dtype is float64

# --8<-- [start:gist]
shared = torch.from_numpy(arr)
viewed = torch.as_tensor(arr)
copied = torch.tensor(arr)
shared[0] = 1.0
viewed[1] = 2.0
copied[2] = 3.0
assert arr.tolist() == [1.0, 2.0, 0.0]
assert shared.dtype == torch.float64  # dtype is kept, not float32
# --8<-- [end:gist]
print("array after writing through each tensor:", arr)
print("from_numpy dtype:", shared.dtype)

t = torch.ones(3)
# --8<-- [start:gist]
back = t.numpy()
back[0] = 7.0
assert t[0] == 7.0 and np.shares_memory(back, t.numpy())
# --8<-- [end:gist]
print("tensor after writing through .numpy():", t)

# Layouts PyTorch cannot describe are refused rather than copied silently
try:
    torch.from_numpy(np.arange(4)[::-1])
    raise AssertionError("expected a ValueError")
except ValueError as e:
    assert "negative" in str(e)
    print("negative strides:", str(e).split(".")[0])

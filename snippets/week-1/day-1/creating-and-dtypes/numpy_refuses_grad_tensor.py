# docexec: raises=RuntimeError match="on Tensor that requires grad"
import numpy as np
import torch

w = torch.ones(3, requires_grad=True)

a = w.detach().numpy()  # the usual fix: still shares memory with w
assert np.shares_memory(a, w.detach().numpy())
b = w.numpy(force=True)  # force=True detaches (and copies only if needed)
b[0] = 5.0
assert w[0].item() == 5.0
print("after writing through numpy(force=True):", w)

w.numpy()

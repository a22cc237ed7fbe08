# docexec: raises=RuntimeError match="leaf Variable that requires grad"
import torch

w = torch.ones(3, requires_grad=True)

# Updating a leaf in place is how optimizers work: they do it with autograd
# switched off.
with torch.no_grad():
    w -= 0.1
print("update under no_grad:", w)
assert torch.allclose(w, torch.full((3,), 0.9))

# With autograd on, the same statement fails immediately.
w += 1

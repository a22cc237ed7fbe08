# docexec: raises=RuntimeError match="only for scalar outputs"
import torch

x = torch.randn(3, requires_grad=True)
y = x**2  # a vector: three outputs, a 3 x 3 Jacobian
print("y has shape", tuple(y.shape))
y.backward()  # which combination of the outputs? autograd will not guess

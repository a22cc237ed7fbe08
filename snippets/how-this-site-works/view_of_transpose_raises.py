# docexec: raises=RuntimeError match="view size is not compatible"
import torch

t = torch.arange(6).reshape(2, 3).t()
print("contiguous:", t.is_contiguous())
t.view(6)  # a view cannot flatten memory that is not laid out in order

# docexec: raises=RuntimeError
# docexec: match="view size is not compatible.*Use \.reshape"
import torch
from torchguide.layout import describe_layout

x = torch.arange(6.0).reshape(2, 3)
y = x.t()  # shape (3, 2), strides swapped: no data moved
print("x:", describe_layout(x))
print("y:", describe_layout(y))

# flattening y would need one stride for memory order 0, 3, 1, 4, 2, 5
assert y.flatten().tolist() == [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
y.view(6)

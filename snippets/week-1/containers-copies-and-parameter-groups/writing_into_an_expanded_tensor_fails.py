# docexec: raises=RuntimeError match="more than one element of the written-to"
import torch

bias = torch.zeros(4)
grid = bias.expand(3, 4)  # 12 elements over 4 memory locations
print("strides", grid.stride())
grid.add_(1.0)  # in place: each location would be written 3 times

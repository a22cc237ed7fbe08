# docexec: raises=RuntimeError match="modified inplace"
import torch
from torch import nn

# torchvision's ResNets use ReLU(inplace=True) right after a layer like this
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(inplace=True), nn.Linear(4, 1))
model[0].register_full_backward_hook(lambda mod, gin, gout: None)
model(torch.randn(8, 3)).sum().backward()

# docexec: raises=ValueError match="Expected more than 1 value per channel"
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU())
dataset = TensorDataset(torch.randn(65, 8))  # 65 = 2 * 32 + 1
loader = DataLoader(dataset, batch_size=32)  # drop_last=False

model.train()
for step, (x,) in enumerate(loader):
    print(f"step {step}: batch of {len(x)}")
    model(x)  # the last batch holds one sample

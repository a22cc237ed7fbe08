# docexec: raises=RuntimeError match="'MseLossBackward0' returned nan"
import warnings

import torch
import torch.nn.functional as F
from torch import nn

warnings.simplefilter("ignore")
x, y = torch.randn(8, 4), torch.randn(8, 1)
x[5, 2] = float("nan")  # one bad value in the data
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
with torch.autograd.detect_anomaly():
    loss = F.mse_loss(model(x), y)
    print("loss:", loss.item())
    # The first backward node to return NaN is the loss's own: anomaly
    # mode names MseLossBackward0, not the data.
    loss.backward()

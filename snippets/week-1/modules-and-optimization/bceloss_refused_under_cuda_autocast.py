# docexec: cuda
# docexec: raises=RuntimeError match="unsafe to autocast"
import torch
from torch import nn

logits = torch.randn(8, 1, device="cuda")
target = torch.zeros(8, 1, device="cuda")
with torch.autocast("cuda", dtype=torch.float16):
    ok = nn.BCEWithLogitsLoss()(logits, target)  # autocast-safe
    print("BCEWithLogitsLoss under autocast:", ok.dtype)
    nn.BCELoss()(torch.sigmoid(logits), target)  # refused

# docexec: raises=IndexError match="out of bounds"
import torch
from torch.nn import functional as F

logits = torch.randn(4, 3)  # 3 classes ...
labels = torch.tensor([0, 2, 1, 3])  # ... and a label 3, out of range
# --8<-- [start:gist]
loss = F.cross_entropy(logits, labels)  # on the CPU: fails here, and says so
print("never reached:", loss)
# --8<-- [end:gist]

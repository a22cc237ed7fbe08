import torch
from torch import nn

dropout = nn.Dropout(p=0.5)
assert list(dropout.parameters()) == []  # it has no weights to zero

x = torch.arange(1.0, 9.0)
out = dropout(x)  # training mode: a fresh random mask on every call
kept = out != 0
# dropped activations become 0, kept ones are scaled by 1 / (1 - p)
assert torch.equal(out[kept], x[kept] * 2)
print("input:      ", x.tolist())
print("train mode: ", out.tolist())

dropout.eval()
assert torch.equal(dropout(x), x)
print("eval mode:  ", dropout(x).tolist())

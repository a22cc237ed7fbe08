import torch
from torch import nn

model = nn.Sequential(nn.Linear(8, 8), nn.BatchNorm1d(8), nn.Dropout(p=0.5))
bn = model[1]
x = torch.randn(4, 8)

# no_grad only stops recording: a model in training mode still drops units
# and BatchNorm still updates its running statistics
# --8<-- [start:gist]
with torch.no_grad():
    a, b = model(x), model(x)
assert model.training and not torch.equal(a, b)
assert int(bn.num_batches_tracked) == 2
# --8<-- [end:gist]
zeroed = int((a == 0).sum())

# --8<-- [start:gist]
# eval() switches dropout off and BatchNorm to its running statistics ...
model.eval()
c, d = model(x), model(x)
assert torch.equal(c, d) and int((c == 0).sum()) == 0
assert int(bn.num_batches_tracked) == 2
# ... but records the graph as usual: the two switches are independent
assert c.requires_grad
# --8<-- [end:gist]

print("train mode + no_grad: outputs differ:", not torch.equal(a, b),
      "| zeroed by dropout:", zeroed, "of", a.numel(),
      "| BatchNorm updates:", int(bn.num_batches_tracked))
print("eval mode: outputs differ:", not torch.equal(c, d),
      "| zeroed:", int((c == 0).sum()),
      "| BatchNorm updates:", int(bn.num_batches_tracked))
print("eval mode output requires_grad:", c.requires_grad)

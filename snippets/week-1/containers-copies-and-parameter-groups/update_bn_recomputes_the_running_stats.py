import torch
from torch import nn
from torch.optim.swa_utils import AveragedModel, update_bn

model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
swa = AveragedModel(model)  # averages parameters; buffers copied as they are
data = [torch.randn(8, 2) * 3 + 5 for _ in range(4)]
for batch in data:
    model(batch)  # moves the model's running mean
    with torch.no_grad():
        model[0].weight.add_(torch.randn(2, 2))  # "a step"
    swa.update_parameters(model)
copied = swa.module[1].running_mean.clone()
# --8<-- [start:gist]
assert torch.equal(copied, model[1].running_mean)  # the model's, copied
update_bn(data, swa)  # one pass, momentum=None: a plain average
after = swa.module[1].running_mean
with torch.no_grad():  # the averaged weights' own activations
    wanted = swa.module[0](torch.cat(data)).mean(0)
assert torch.allclose(after, wanted, atol=1e-4)
# --8<-- [end:gist]
assert not torch.allclose(copied, wanted, atol=1e-2)
print("running mean copied from the model:", copied)
print("after update_bn:                   ", after)
print("mean of the averaged model's layer:", wanted)

import torch
from torch import nn

C = 8
sample = torch.randn(1, C, 4, 4)
mates = torch.randn(15, C, 4, 4) * 2 + 3  # other samples, other statistics
batch = torch.cat([sample, mates])


def changes_with_batch_mates(layer):
    """Whether the sample's output differs alone and beside its mates."""
    return not torch.allclose(layer(sample)[0], layer(batch)[0], atol=1e-5)


bn = nn.BatchNorm2d(C)
# --8<-- [start:gist]
changes = {
    "BatchNorm2d, train()": changes_with_batch_mates(bn.train()),
    "BatchNorm2d, eval()": changes_with_batch_mates(bn.eval()),
    "LayerNorm": changes_with_batch_mates(nn.LayerNorm([C, 4, 4])),
    "GroupNorm": changes_with_batch_mates(nn.GroupNorm(4, C)),
}
assert list(changes.values()) == [True, False, False, False]
# --8<-- [end:gist]
print("the sample's output depends on the rest of its batch:")
for name, changed in changes.items():
    print(f"  {name:21} {changed}")

before = bn.running_mean.clone()
bn.eval()(batch)
assert torch.equal(bn.running_mean, before)
bn.train()(batch)
assert not torch.equal(bn.running_mean, before)
print("running statistics updated: in eval() False, in train() True")

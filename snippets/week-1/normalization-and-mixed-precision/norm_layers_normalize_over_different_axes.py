import torch
from torch import nn

N, C, H, W, GROUPS, EPS = 4, 6, 3, 3, 3, 1e-5
x = torch.randn(N, C, H, W) * 3 + 1


def standardize(t, dims):
    mean = t.mean(dims, keepdim=True)
    var = t.var(dims, unbiased=False, keepdim=True)
    return (t - mean) / (var + EPS).sqrt()


grouped = x.reshape(N, GROUPS, C // GROUPS, H, W)
# --8<-- [start:gist]
by_hand = {  # which values share one mean and variance
    "BatchNorm2d": standardize(x, (0, 2, 3)),  # per channel, across the batch
    "LayerNorm": standardize(x, (1, 2, 3)),  # per sample, all its features
    "GroupNorm": standardize(grouped, (2, 3, 4)).reshape_as(x),  # per
}                                           # sample, per group of channels
layers = {
    "BatchNorm2d": nn.BatchNorm2d(C, affine=False),
    "LayerNorm": nn.LayerNorm([C, H, W], elementwise_affine=False),
    "GroupNorm": nn.GroupNorm(GROUPS, C, affine=False),
}
for name, layer in layers.items():
    assert torch.allclose(layer(x), by_hand[name], atol=1e-5)
# --8<-- [end:gist]
    print(f"{name:12} matches the statistics over its own axes")

# docexec: raises=ValueError match="Expected more than 1 value per channel"
import torch
from torch import nn

# --8<-- [start:gist]
image_bn, vector_bn = nn.BatchNorm2d(8), nn.BatchNorm1d(8)
one_image = torch.randn(1, 8, 4, 4)  # 16 values per channel: fine
assert image_bn(one_image).shape == one_image.shape
one_vector = torch.randn(1, 8)  # a single value per channel
assert vector_bn.eval()(one_vector).shape == (1, 8)  # eval: running stats
print("BatchNorm2d on one image, BatchNorm1d on one vector in eval(): fine")
assert nn.LayerNorm(8)(one_vector).shape == (1, 8)
vector_bn.train()(one_vector)  # nothing to take a variance of: raises
# --8<-- [end:gist]

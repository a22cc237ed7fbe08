import torch
from torch import nn

one_image = torch.randn(1, 4, 5, 5)
one_vector = torch.randn(1, 4)

# BatchNorm2d averages over batch AND pixels: 25 values per channel here
bn2d = nn.BatchNorm2d(4).train()
out = bn2d(one_image)
# it runs, normalising the single image by its own per-channel statistics
channel_means = out.mean(dim=(0, 2, 3))
assert torch.allclose(channel_means, torch.zeros(4), atol=1e-6)

# in eval mode BatchNorm uses its running statistics: any batch size works
bn1d = nn.BatchNorm1d(4).eval()
assert bn1d(one_vector).shape == (1, 4)

print("BatchNorm2d, train, input 1 x 4 x 5 x 5 -> output", tuple(out.shape))
print(
    "  its channel means after normalising:",
    [abs(round(m, 6)) for m in channel_means.tolist()],
)
print("BatchNorm1d, eval, input 1 x 4 -> output", tuple(bn1d(one_vector).shape))

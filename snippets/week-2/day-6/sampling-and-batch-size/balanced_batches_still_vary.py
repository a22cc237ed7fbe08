import math

import matplotlib.pyplot as plt
import torch
from torch.utils.data import BatchSampler, WeightedRandomSampler
from torchguide.data.sampling import class_balanced_weights

# --8<-- [start:gist]
labels = torch.tensor([0] * 1000 + [1] * 10)
sampler = WeightedRandomSampler(class_balanced_weights(labels), 1010)
# the batches of indices a DataLoader(batch_size=32, drop_last=True) forms
batches = BatchSampler(sampler, batch_size=32, drop_last=True)

# class-B samples in each batch of 32, over 20 epochs
per_batch = torch.tensor(
    [int(labels[b].sum()) for _ in range(20) for b in batches]
).float()
# --8<-- [end:gist]

# draws are independent: the count per batch is Binomial(32, 0.5), whose
# mean is 16 and standard deviation sqrt(32 * 0.25) = 2.83
assert abs(per_batch.mean() - 16) < 0.5
assert abs(per_batch.std() - math.sqrt(8)) < 0.4
# --8<-- [start:gist]
assert per_batch.min() <= 10 and per_batch.max() >= 22
share_exact = (per_batch == 16).float().mean().item()
assert share_exact < 0.2  # few batches are exactly 16 / 16
# --8<-- [end:gist]

counts = torch.bincount(per_batch.long(), minlength=33)
k = torch.arange(33)
binomial = torch.tensor([math.comb(32, i) for i in range(33)]) / 2**32
fig, ax = plt.subplots(figsize=(4.8, 3.2))
ax.bar(k, counts / len(per_batch), label="measured")
ax.plot(k, binomial, "k.-", label="Binomial(32, 0.5)")
ax.set_xlabel("class-B samples in a batch of 32")
ax.set_ylabel("share of batches")
ax.set_title("Balanced in expectation, not in every batch")
ax.legend()

print(
    f"batches: {len(per_batch)}, class B per batch: "
    f"mean {per_batch.mean():.1f}, std {per_batch.std():.1f}, "
    f"min {per_batch.min():.0f}, max {per_batch.max():.0f}"
)
print(f"batches with exactly 16 of each: {share_exact:.0%}")

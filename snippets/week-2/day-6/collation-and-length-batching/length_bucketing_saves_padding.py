import torch
from torch.utils.data import DataLoader
from torchguide.data.collate import collate_padded_sequences
from torchguide.data.sampling import LengthBucketBatchSampler

# 2000 token sequences with a long-tailed length distribution
lengths = torch.distributions.LogNormal(3.5, 0.6).sample((2000,))
lengths = lengths.long().clamp(1, 400)
dataset = [(torch.ones(int(n), dtype=torch.long), 0) for n in lengths]
real = int(lengths.sum())


def padded_tokens(**how):
    """Padding positions in one epoch, counted from the batches' masks."""
    loader = DataLoader(dataset, collate_fn=collate_padded_sequences, **how)
    return sum(int((~batch.mask).sum()) for batch in loader)


def buckets(pool_batches):
    sampler = LengthBucketBatchSampler(lengths, 32, pool_batches=pool_batches)
    return padded_tokens(batch_sampler=sampler)


# --8<-- [start:gist]
padding = {
    "pad all to the longest": len(dataset) * int(lengths.max()) - real,
    "random batches": padded_tokens(batch_size=32, shuffle=True),
    "buckets, pools of 5": buckets(5),
    "buckets, pools of 20": buckets(20),
    "buckets, whole dataset": buckets(100),  # 63 batches: one pool
}
pads = list(padding.values())
assert pads == sorted(pads, reverse=True)  # larger pools, less padding
assert padding["buckets, whole dataset"] * 10 < padding["random batches"]
# --8<-- [end:gist]
# even with one pool, equal lengths are shuffled: most batches change
# from epoch to epoch; only those at the sparse long tail repeat
sampler = LengthBucketBatchSampler(lengths, 32, pool_batches=100)
epoch1, epoch2 = ({frozenset(b) for b in sampler} for _ in range(2))
assert len(epoch1 & epoch2) < len(epoch1) // 10

print(f"real tokens: {real}")
for name, pad in padding.items():
    share = pad / (pad + real)
    print(f"{name:23} padded tokens {pad:7d}  ({share:.0%} of the batch)")
repeated = len(epoch1 & epoch2)
print(f"one pool: {repeated} of {len(epoch1)} batches repeat in the next epoch")

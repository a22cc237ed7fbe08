import torch

sizes = [3, 5, 1]  # uneven per-rank batches
shards = [torch.randn(n, 4) * 2 + 1 for n in sizes]
# --8<-- [start:gist]
# each rank sends its count, mean and mean of squares per channel
count = torch.tensor([float(len(s)) for s in shards])[:, None]
mean = torch.stack([s.mean(0) for s in shards])
square = torch.stack([s.pow(2).mean(0) for s in shards])
n = count.sum()
global_mean = (count * mean).sum(0) / n  # weighted by count
global_var = (count * square).sum(0) / n - global_mean**2  # biased
# --8<-- [end:gist]
everything = torch.cat(shards)
bn = torch.nn.BatchNorm1d(4, momentum=1.0)  # running stats = this batch's
expected = bn(everything)
normalized = (everything - global_mean) / (global_var + bn.eps).sqrt()
assert torch.allclose(normalized, expected, atol=1e-5)
assert torch.allclose(bn.running_var, global_var * n / (n - 1), atol=1e-5)
mean_of_means = mean.mean(0)  # the mistake: each rank weighted alike
assert not torch.allclose(mean_of_means, global_mean, atol=1e-2)
print("global mean:       ", [round(v, 4) for v in global_mean.tolist()])
print("BatchNorm's mean:  ", [round(v, 4) for v in everything.mean(0).tolist()])
print("mean of rank means:", [round(v, 4) for v in mean_of_means.tolist()])

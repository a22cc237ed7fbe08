import torch

w = torch.randn(256, 256) / 16
a, b = torch.randn(8, 256) / 16, torch.randn(256, 8) / 16
scale, x = 16 / 8, torch.randn(32, 256)
# --8<-- [start:gist]
delta = scale * (b @ a)  # (256, 256): rank 8
unmerged = x @ w.T + scale * (x @ a.T) @ b.T
merged_w = w + delta  # one matrix: no extra cost at inference
merged = x @ merged_w.T
restored = merged_w - delta  # unmerge
# --8<-- [end:gist]
assert torch.allclose(merged, unmerged, rtol=1e-4, atol=1e-5)
assert torch.linalg.matrix_rank(delta) == 8
# float32 rounding: W + d - d is W within an ulp, not bit for bit
ulp = torch.finfo(torch.float32).eps * torch.maximum(w.abs(), merged_w.abs())
off = restored != w
assert off.any() and ((restored - w).abs() <= 2 * ulp).all()
kept = w.clone()
restored_exact = (w.double() + delta.double()) - delta.double()
assert torch.equal(restored_exact.float(), kept)  # merge in float64: exact
print("merged vs unmerged, max diff:", f"{(merged - unmerged).abs().max():.1e}")
print(
    "unmerged W bit-equal, float32:", f"{1 - off.float().mean():.1%} of entries"
)
print(
    "unmerged W bit-equal, float64 merge:",
    torch.equal(restored_exact.float(), kept),
)

import torch
import torch.nn.functional as F

x = torch.randn(4, 16) + 3.0  # vectors whose mean is far from 0
centred = x - x.mean(dim=-1, keepdim=True)
# --8<-- [start:gist]
rms = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)  # no mean removed
assert torch.allclose(F.rms_norm(x, (16,), eps=1e-6), rms, atol=1e-6)
same_on_x = torch.allclose(
    F.rms_norm(x, (16,)), F.layer_norm(x, (16,)), atol=1e-4
)
same_on_centred = torch.allclose(
    F.rms_norm(centred, (16,)), F.layer_norm(centred, (16,)), atol=1e-4
)
# --8<-- [end:gist]
assert same_on_centred and not same_on_x
print("RMSNorm == LayerNorm on x:          ", same_on_x)
print("RMSNorm == LayerNorm on x - mean(x):", same_on_centred)

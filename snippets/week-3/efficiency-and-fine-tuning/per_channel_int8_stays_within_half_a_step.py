import torch


def quantize(w, dim):  # symmetric: no zero point, range [-127, 127]
    scale = w.abs().amax(dim=dim, keepdim=True) / 127
    return torch.round(w / scale).clamp(-127, 127).to(torch.int8), scale


w = torch.randn(64, 128) * 0.02
w[0, 0] = 1.0  # one outlier weight in channel 0
# --8<-- [start:gist]
q, scale = quantize(w, dim=1)  # one scale per output channel
error = (q * scale - w).abs()
assert (error <= scale / 2 * (1 + 1e-6)).all()  # half a step at most
q_t, scale_t = quantize(w, dim=(0, 1))  # one scale for the tensor
error_t = (q_t * scale_t - w).abs()
assert error_t[1:].mean() > 10 * error[1:].mean()  # the outlier costs all
# --8<-- [end:gist]
assert q.element_size() * 4 == w.element_size()
print(
    "bytes per weight: float32", w.element_size(), "-> int8", q.element_size()
)
print(f"mean error, per channel: {error[1:].mean():.1e}")
print(f"mean error, per tensor:  {error_t[1:].mean():.1e}")

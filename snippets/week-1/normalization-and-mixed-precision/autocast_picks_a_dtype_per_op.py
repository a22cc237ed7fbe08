import torch
import torch.nn.functional as F
from torch import nn

model = nn.Linear(16, 4)
x, target = torch.randn(8, 16), torch.randint(0, 4, (8,))
offset = torch.randn(8, 4)  # float32

# --8<-- [start:gist]
with torch.autocast("cpu", dtype=torch.bfloat16):
    logits = model(x)  # matmul: the lower precision
    loss = F.cross_entropy(logits, target)  # a loss: float32
    mixed = logits + offset  # no rule of its own: the widest input, float32
# --8<-- [end:gist]
    conv = nn.Conv1d(2, 2, 3)(torch.randn(1, 2, 8))
    mse = F.mse_loss(logits, offset)
    # on the CPU these follow their bfloat16 input (CUDA's list: float32)
    soft, normed = logits.softmax(-1), F.layer_norm(logits, (4,))
assert logits.dtype == conv.dtype == torch.bfloat16
assert soft.dtype == normed.dtype == torch.bfloat16
assert loss.dtype == mse.dtype == mixed.dtype == torch.float32
print("linear, conv:", logits.dtype, "| cross_entropy, mse_loss:", loss.dtype,
      "| bfloat16 + float32:", mixed.dtype)
print("softmax, layer_norm on the CPU:", soft.dtype)

loss.backward()  # outside autocast
# --8<-- [start:gist]
assert model.weight.dtype == model.weight.grad.dtype == torch.float32
# --8<-- [end:gist]
print("weight:", model.weight.dtype, "| weight.grad:", model.weight.grad.dtype)

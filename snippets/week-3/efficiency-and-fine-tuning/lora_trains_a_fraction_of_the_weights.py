import torch
from torch import nn

base = nn.Linear(1024, 1024)
rank, alpha = 8, 16
# --8<-- [start:gist]
base.requires_grad_(False)  # the pretrained layer is frozen
lora_a = nn.Parameter(torch.randn(rank, 1024) / 1024**0.5)
lora_b = nn.Parameter(torch.zeros(1024, rank))  # B = 0: starts as the base


def lora(x):
    update = (x @ lora_a.T) @ lora_b.T  # through the rank-8 bottleneck
    return base(x) + (alpha / rank) * update


# --8<-- [end:gist]
x = torch.randn(4, 1024)
assert torch.equal(lora(x), base(x))  # B = 0: no change at step 0
lora(x).square().sum().backward()
trained = lora_a.numel() + lora_b.numel()
frozen = sum(p.numel() for p in base.parameters())
assert base.weight.grad is None and lora_b.grad is not None
assert trained / frozen < 0.02
print("frozen weights:   ", frozen, "(no .grad)")
print("trained weights:  ", trained, f"({trained / frozen:.2%})")

import torch
from torchguide.layout import shares_storage

a = torch.zeros(3, 4)
b = torch.ones(3, 4)

shapes = {
    "cat dim=0": torch.cat([a, b], dim=0).shape,
    "cat dim=1": torch.cat([a, b], dim=1).shape,
    "stack dim=0": torch.stack([a, b], dim=0).shape,
    "stack dim=2": torch.stack([a, b], dim=2).shape,
}
# --8<-- [start:gist]
assert shapes == {
    "cat dim=0": (6, 4),  # existing dim grows
    "cat dim=1": (3, 8),
    "stack dim=0": (2, 3, 4),  # a new dim of size 2 appears
    "stack dim=2": (3, 4, 2),
}
# stack is cat of unsqueezed inputs
s = torch.stack([a, b], dim=1)
assert torch.equal(s, torch.cat([a.unsqueeze(1), b.unsqueeze(1)], dim=1))
# both write into freshly allocated memory
assert not shares_storage(s, a) and not shares_storage(torch.cat([a, b]), a)
# --8<-- [end:gist]

errors = []
c = torch.ones(3, 5)
try:
    torch.cat([a, c])  # cat: sizes must match except along dim
except RuntimeError as e:
    errors.append(str(e))
try:
    torch.stack([a, c])  # stack: shapes must match exactly
except RuntimeError as e:
    errors.append(str(e))
assert torch.cat([a, c], dim=1).shape == (3, 9)  # fine along dim 1
assert errors[0].startswith("Sizes of tensors must match except in dim")
assert errors[1].startswith("stack expects each tensor to be equal size")

for name, shape in shapes.items():
    print(f"{name:12} -> {tuple(shape)}")
print("cat  (3,4)+(3,5) dim=0: RuntimeError:", errors[0])
print("stack(3,4)+(3,5):       RuntimeError:", errors[1])

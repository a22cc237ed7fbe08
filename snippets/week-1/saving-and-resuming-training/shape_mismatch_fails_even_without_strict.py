# docexec: raises=RuntimeError match="size mismatch for 2.weight"
from torch import nn


def classifier(classes):
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, classes))


pretrained = classifier(10).state_dict()
model = classifier(3)  # fine-tuning for 3 classes: same keys, other shape
# --8<-- [start:gist]
# the fix: drop the head's keys first, then load with strict=False
kept = {k: v for k, v in pretrained.items() if not k.startswith("2.")}
result = model.load_state_dict(kept, strict=False)
assert result.missing_keys == ["2.weight", "2.bias"]
print("without the head's keys: missing", result.missing_keys)

model.load_state_dict(pretrained, strict=False)  # strict covers keys only
# --8<-- [end:gist]

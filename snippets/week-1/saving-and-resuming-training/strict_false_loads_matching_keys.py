import torch
from torch import nn


class Classifier(nn.Module):
    def __init__(self, head_name):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(8, 16), nn.ReLU())
        setattr(self, head_name, nn.Linear(16, 3))


pretrained = Classifier("head").state_dict()
model = Classifier("classifier")  # the head was renamed

# --8<-- [start:gist]
try:
    model.load_state_dict(pretrained)  # strict=True: every key must match
except RuntimeError as error:
    message = str(error)
assert "Missing key(s)" in message and "Unexpected key(s)" in message
result = model.load_state_dict(pretrained, strict=False)
print("missing:", result.missing_keys)
print("unexpected:", result.unexpected_keys)
# --8<-- [end:gist]
assert result.missing_keys == ["classifier.weight", "classifier.bias"]
assert result.unexpected_keys == ["head.weight", "head.bias"]
assert torch.equal(model.backbone[0].weight, pretrained["backbone.0.weight"])
print("strict=True raised:", message.splitlines()[1].strip())
print("strict=False loaded the backbone:", True)

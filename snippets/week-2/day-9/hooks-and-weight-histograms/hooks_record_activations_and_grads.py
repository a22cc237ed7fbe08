import torch
from torch import nn

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
x = torch.randn(16, 4)
seen = {}


def save_activation(module, args, output):
    seen["relu output"] = output.detach()  # returns None: output unchanged


def save_grad_norm(module, grad_input, grad_output):
    seen["fc2 grad_output"] = grad_output[0].norm().item()


# --8<-- [start:gist]
handles = [
    model[1].register_forward_hook(save_activation),
    model[2].register_full_backward_hook(save_grad_norm),
]
logits = model(x)
logits.register_hook(lambda g: seen.update(logits_grad=g.norm().item()))
logits.pow(2).mean().backward()
# --8<-- [end:gist]

# --8<-- [start:gist]
assert torch.equal(seen["relu output"], torch.relu(model[0](x)))
# d(mean of squares)/d(logits) = 2 * logits / numel, seen by both hooks
expected = (2 * logits / logits.numel()).norm().item()
assert abs(seen["logits_grad"] - expected) < 1e-6
assert seen["fc2 grad_output"] == seen["logits_grad"]
# --8<-- [end:gist]
print("activation captured:", tuple(seen["relu output"].shape),
      f"share of zeros {(seen['relu output'] == 0).float().mean():.2f}")
print(f"grad norm at the logits: tensor hook {seen['logits_grad']:.4f},"
      f" module hook {seen['fc2 grad_output']:.4f}")

for handle in handles:
    handle.remove()
seen.clear()
model(x).sum().backward()
assert seen == {}
print("after handle.remove():", len(seen), "hooks fired")

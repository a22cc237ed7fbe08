import torch
from torch import nn

layer = nn.Linear(3, 2)
x = torch.randn(4, 3)
plain = layer(x)

# --8<-- [start:gist]
# A forward hook that returns a value replaces the module's output.
handle = layer.register_forward_hook(lambda mod, args, out: out.clamp(min=0))
assert torch.equal(layer(x), plain.clamp(min=0))
# --8<-- [end:gist]
print("forward hook returned a tensor -> output replaced:",
      int((plain < 0).sum()), "negatives clamped")
handle.remove()

# --8<-- [start:gist]
# One that returns None leaves it as it was.
handle = layer.register_forward_hook(lambda mod, args, out: None)
assert torch.equal(layer(x), plain)
# --8<-- [end:gist]
print("forward hook returned None    -> output unchanged")
handle.remove()

# Changing the output in place changes it too (no return needed).
handle = layer.register_forward_hook(lambda mod, args, out: out.mul_(2))
assert torch.equal(layer(x), plain * 2)
print("forward hook out.mul_(2)      -> output doubled")
handle.remove()

# --8<-- [start:gist]
# A forward pre-hook sees the inputs first; its return value replaces them.
handle = layer.register_forward_pre_hook(lambda mod, args: (args[0] * 0,))
assert torch.equal(layer(x), layer.bias.expand(4, 2))
# --8<-- [end:gist]
print("pre-hook returned zeros       -> output is the bias alone")

# --8<-- [start:gist]
# Hooks run in __call__: calling .forward() directly skips them.
bypassed = torch.equal(layer.forward(x), plain)
assert bypassed
# --8<-- [end:gist]
print("layer.forward(x) bypasses the pre-hook:", bypassed)
handle.remove()

import torch
from torch import nn

model = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 1))
x = torch.randn(8, 3)


def grads(**hooks):
    """Weight gradients of both layers with hooks on the second layer."""
    model.zero_grad()
    handles = [getattr(model[1], f"register_{kind}")(fn)
               for kind, fn in hooks.items()]
    model(x).pow(2).mean().backward()
    for handle in handles:
        handle.remove()
    return model[0].weight.grad.clone(), model[1].weight.grad.clone()


first, second = grads()

# --8<-- [start:gist]
# Returning a new grad_input changes what flows to earlier layers only:
# the hooked layer's own weight gradient was computed from grad_output.
f, s = grads(full_backward_hook=lambda m, gin, gout: (gin[0] * 0,))
assert torch.equal(f, torch.zeros_like(first)) and torch.equal(s, second)
# --8<-- [end:gist]
print("full_backward_hook returns 0 * grad_input:",
      "first layer grad zeroed, own grad unchanged")


def scale_grad_output_in_place(module, grad_input, grad_output):
    grad_output[0].mul_(0)


# --8<-- [start:gist]
# Changing grad_output in place does nothing to any gradient.
f, s = grads(full_backward_hook=scale_grad_output_in_place)
assert torch.equal(f, first) and torch.equal(s, second)
# --8<-- [end:gist]
print("in-place change of grad_output:           no gradient changed")

# --8<-- [start:gist]
# grad_output can be replaced, but only by a backward *pre*-hook.
f, s = grads(full_backward_pre_hook=lambda m, gout: (gout[0] * 0,))
assert torch.equal(s, torch.zeros_like(second))
assert torch.equal(f, torch.zeros_like(first))
# --8<-- [end:gist]
print("full_backward_pre_hook returns zeros:      both layers' grads zeroed")

# A tensor hook's return value replaces that tensor's gradient.
w = torch.ones(3, requires_grad=True)
y = w * 2
y.register_hook(lambda g: g * 10)
y.sum().backward()
assert torch.equal(w.grad, torch.full((3,), 20.0))
print("tensor hook returns 10 * grad:             w.grad =", w.grad.tolist())

import warnings

import torch

w = torch.randn(3, requires_grad=True)  # a leaf: made by you, not by an op
h = w * 2  # not a leaf: the output of an op, with a grad_fn
loss = (h**2).sum()

# --8<-- [start:gist]
assert w.is_leaf and not h.is_leaf and torch.randn(2).is_leaf
# --8<-- [end:gist]
print("w: is_leaf", w.is_leaf, "| grad_fn", w.grad_fn)
print("h: is_leaf", h.is_leaf, "| grad_fn", type(h.grad_fn).__name__)
loss.backward(retain_graph=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    # --8<-- [start:gist]
    dropped = h.grad  # computed, passed on to w, then dropped
    # --8<-- [end:gist]
assert dropped is None and "not a leaf" in str(caught[0].message)
print("after backward: h.grad", dropped, "| warns: a Tensor that is not",
      "a leaf Tensor is being accessed")

w.grad = None
# --8<-- [start:gist]
h.retain_grad()  # keep this non-leaf's gradient from now on
loss.backward()
assert torch.allclose(h.grad, 2 * h.detach())  # d(h^2)/dh
assert torch.allclose(w.grad, 2 * h.grad)  # chain rule through h = 2w
# --8<-- [end:gist]
print("with retain_grad: h.grad == 2h:", True, "| w.grad == 2 h.grad:", True)

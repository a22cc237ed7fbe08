import torch

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)

c = w.clone()  # new memory, but still connected to w in the graph
assert c.requires_grad and not c.is_leaf
assert type(c.grad_fn).__name__ == "CloneBackward0"

(c * c).sum().backward()  # gradient flows back through the clone into w
assert torch.equal(w.grad, 2 * w.detach())

# the clone's node points at the existing graph; nothing is duplicated
h = w * 2
hc = h.clone()
assert hc.grad_fn.next_functions[0][0] is h.grad_fn

d = w.detach().clone()  # new memory AND no graph: a plain independent copy
assert not d.requires_grad and d.is_leaf and d.grad_fn is None

print("clone grad_fn:", type(c.grad_fn).__name__)
print("w.grad after backward through the clone:", w.grad)
print("detach().clone() requires_grad:", d.requires_grad)

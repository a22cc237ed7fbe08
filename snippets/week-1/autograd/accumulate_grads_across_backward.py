import torch

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
x1 = torch.tensor([1.0, 0.0, -1.0])
x2 = torch.tensor([0.5, 4.0, 2.0])

(w * x1).sum().backward()  # d/dw = x1
g1 = w.grad.clone()
(w * x2).sum().backward()  # d/dw = x2, ADDED to w.grad
assert torch.equal(g1, x1)
assert torch.equal(w.grad, x1 + x2)
print("after 1st backward:", g1.tolist())
print("after 2nd backward:", w.grad.tolist(), "= x1 + x2")

# optimizer.zero_grad() defaults to set_to_none=True: grads become None
opt = torch.optim.SGD([w], lr=0.1)
opt.zero_grad()
assert w.grad is None
print("zero_grad():", w.grad)

(w * x1).sum().backward()
opt.zero_grad(set_to_none=False)  # old behaviour: fill with zeros
assert torch.equal(w.grad, torch.zeros(3))
print("zero_grad(set_to_none=False):", w.grad.tolist())

import torch

# A "frozen" parameter that is still in an optimizer with weight decay
w = torch.nn.Parameter(torch.ones(3))
# --8<-- [start:gist]
w.requires_grad_(False)
opt = torch.optim.SGD([w], lr=0.1, weight_decay=0.5)
# --8<-- [end:gist]

# grad is None -> the optimizer skips the parameter entirely
assert w.grad is None
opt.step()
assert torch.equal(w, torch.ones(3))
print("grad None     -> after step:", w.tolist())

# --8<-- [start:gist]
# A zero tensor is NOT None: weight decay still shrinks the weights
w.grad = torch.zeros(3)  # e.g. zero_grad(set_to_none=False) left it
opt.step()
assert torch.allclose(w, torch.full((3,), 0.95))
print("grad zeros    -> after step:", [round(t, 4) for t in w.tolist()])
# --8<-- [end:gist]

# Same with momentum: a stale buffer keeps moving a zero-grad param
v = torch.nn.Parameter(torch.ones(3))
opt = torch.optim.SGD([v], lr=0.1, momentum=0.9)
v.grad = torch.ones(3)
# --8<-- [start:gist]
opt.step()  # one real step fills the momentum buffer
v.grad = torch.zeros(3)  # "frozen" from now on
before = v.detach().clone()
opt.step()
assert not torch.equal(v, before)
# --8<-- [end:gist]
moved = (before - v).tolist()
print("momentum only -> moved by:", [round(t, 4) for t in moved])

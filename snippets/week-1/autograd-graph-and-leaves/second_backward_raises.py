# docexec: raises=RuntimeError match="backward through the graph a second time"
import torch

x = torch.randn(3, requires_grad=True)
y = x.exp()  # exp saves its result: backward needs it (d/dx e^x = e^x)
loss = y.sum()
assert torch.equal(y.grad_fn._saved_result, y)
print("before backward, ExpBackward0 holds its result:", True)

loss.backward()  # frees every tensor the graph saved, as it goes
assert torch.allclose(x.grad, x.detach().exp())
print("first backward: x.grad == exp(x):", True)

# A graph whose nodes saved nothing (add, sum) survives a second backward.
z = torch.randn(3, requires_grad=True)
total = (z + 1).sum()
total.backward()
total.backward()
assert torch.equal(z.grad, torch.full((3,), 2.0))
print("(z + 1).sum() twice: z.grad =", z.grad.tolist())

loss.backward()  # the saved result is gone: raises

import torch

x = torch.tensor([0.0, 1.0, 3.0], requires_grad=True)

# where() picks log(x) only where x > 0, but log still runs on every
# element, and its backward computes 0 / 0 at x = 0.
torch.where(x > 0, torch.log(x), 0.0).sum().backward()
outer = x.grad.clone()
assert outer.isnan().tolist() == [True, False, False]

# The fix: make the input safe before the log, not the output after it.
x.grad = None
safe_x = torch.where(x > 0, x, 1.0)
torch.where(x > 0, torch.log(safe_x), 0.0).sum().backward()
assert torch.isfinite(x.grad).all()

print("where(x > 0, log(x), 0):            grad", outer.tolist())
print("where(x > 0, log(where(x>0, x, 1)), 0): grad",
      [round(g, 4) for g in x.grad.tolist()])

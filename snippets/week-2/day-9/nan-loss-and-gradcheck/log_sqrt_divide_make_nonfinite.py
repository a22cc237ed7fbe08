import torch
import torch.nn.functional as F


def show(label: str, value: torch.Tensor) -> None:
    numbers = ", ".join(f"{v:.4g}" for v in value.flatten().tolist())
    print(f"{label:<24} [{numbers}]")


# log(0): a softmax probability that underflowed to 0
# --8<-- [start:gist]
logits = torch.tensor([0.0, 120.0])
log_of_softmax = torch.log(torch.softmax(logits, dim=0))
assert log_of_softmax.isneginf().any()
assert torch.isfinite(F.log_softmax(logits, dim=0)).all()
# --8<-- [end:gist]
show("log(softmax(logits))", log_of_softmax)
show("log_softmax(logits)", F.log_softmax(logits, dim=0))

# sqrt(negative): a variance E[x^2] - E[x]^2 that rounding made < 0
# --8<-- [start:gist]
x = 1000 + 0.01 * torch.randn(50, 1000)  # 50 vectors, variance 1e-4
by_formula = (x * x).mean(dim=1) - x.mean(dim=1) ** 2
negative = by_formula < 0  # rounding's sign varies: some of the 50 are
assert negative.any() and by_formula[negative].sqrt().isnan().all()
assert (x.var(dim=1, unbiased=False) > 0).all()
# --8<-- [end:gist]
first = int(negative.nonzero()[0])
print(f"E[x^2] - E[x]^2 < 0 for {int(negative.sum())} of 50 vectors")
show("sqrt(E[x^2] - E[x]^2)", by_formula[first].sqrt())
show("x.std(unbiased=False)", x[first].std(unbiased=False))

# 0 / 0: normalizing a vector of zeros
# --8<-- [start:gist]
v = torch.zeros(3)
assert (v / v.norm()).isnan().all()
assert torch.isfinite(F.normalize(v, dim=0)).all()  # divides by max(norm, eps)
# --8<-- [end:gist]
show("v / v.norm()", v / v.norm())
show("F.normalize(v, dim=0)", F.normalize(v, dim=0))

import warnings

import torch
from torch.autograd import gradcheck


def cube(x: torch.Tensor) -> torch.Tensor:
    return x**3  # autograd's own, correct backward


# --8<-- [start:gist]
x64 = torch.randn(4, dtype=torch.float64, requires_grad=True)
x32 = x64.detach().float().requires_grad_()

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    passed32 = gradcheck(cube, (x32,), raise_exception=False)
assert not passed32  # a correct backward fails in float32
assert gradcheck(cube, (x64,))
# --8<-- [end:gist]
print("float32:", passed32, "  float64:", True)
print("warning:", str(caught[0].message).split(". ")[0])

# Why: a central difference with eps = 1e-6 divides a rounding error of
# about 1e-7 * |f| (float32) by 2e-6, so the estimate is off by ~10%.
eps = 1e-6
for dtype in (torch.float32, torch.float64):
    v = torch.tensor(1.3, dtype=dtype)
    estimate = (cube(v + eps) - cube(v - eps)) / (2 * eps)
    error = abs(estimate.item() - 3 * 1.3**2) / (3 * 1.3**2)
    print(f"{str(dtype):<14} finite-difference relative error {error:.1e}")
    if dtype == torch.float32:
        assert error > 1e-3  # far above gradcheck's rtol=1e-3
    else:
        assert error < 1e-8

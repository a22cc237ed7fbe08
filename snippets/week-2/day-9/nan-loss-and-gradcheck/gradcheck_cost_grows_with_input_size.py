import torch
from torch.autograd import gradcheck

calls = 0


def cube(x: torch.Tensor) -> torch.Tensor:
    global calls
    calls += 1
    return x**3


for n in (3, 10, 30):
    x = torch.randn(n, dtype=torch.float64, requires_grad=True)
    calls = 0
    gradcheck(cube, (x,))
    slow = calls
    calls = 0
    gradcheck(cube, (x,), fast_mode=True)
    fast = calls
    # one +eps and one -eps evaluation per input element, plus 2
    assert slow == 2 * n + 2 and fast == 4
    print(f"{n:3d} inputs: {slow:3d} forward calls, fast_mode {fast}")

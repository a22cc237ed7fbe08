import torch
from torch.utils.flop_counter import FlopCounterMode

a = torch.randn(8, 16)
b = torch.randn(16, 4)

with FlopCounterMode(display=False) as counter:
    c = torch.einsum("ik,kj->ij", a, b)
ops = {str(op): n for op, n in counter.get_flop_counts()["Global"].items()}

torch.testing.assert_close(c, a @ b)
assert ops == {"aten.bmm": 2 * 8 * 16 * 4}  # one batched matmul, same work
print("aten ops doing the arithmetic:", ops)

# batched and transposed products are written the same way
x = torch.randn(5, 8, 16)
y = torch.randn(5, 4, 16)
torch.testing.assert_close(
    torch.einsum("bik,bjk->bij", x, y), x @ y.transpose(1, 2)
)
print("'bik,bjk->bij' equals x @ y.transpose(1, 2): True")

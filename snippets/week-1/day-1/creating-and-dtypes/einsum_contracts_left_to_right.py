import torch
from torch.utils.flop_counter import FlopCounterMode

torch.manual_seed(0)
n = 64
A, B, v = torch.randn(n, n), torch.randn(n, n), torch.randn(n)


def flops(fn):
    with FlopCounterMode(display=False) as counter:
        out = fn()
    return out, counter.get_total_flops()


# Without the opt_einsum package, torch contracts operands left to right.
with torch.backends.opt_einsum.flags(enabled=False):
    r1, f1 = flops(lambda: torch.einsum("ij,jk,k->i", A, B, v))
    r2, f2 = flops(lambda: torch.einsum("k,jk,ij->i", v, B, A))

torch.testing.assert_close(r1, r2, rtol=1e-4, atol=1e-3)
assert f1 == 2 * n**3 + 2 * n**2  # (A @ B) first: an n x n intermediate
assert f2 == 2 * n**2 + 2 * n**2  # (B @ v) first: only vectors
print("opt_einsum available here:", torch.backends.opt_einsum.is_available())
print("'ij,jk,k->i' flops:", f1)
print("'k,jk,ij->i' flops:", f2, f"({f1 // f2}x fewer)")

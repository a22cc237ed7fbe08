import torch
from torch.utils.flop_counter import FlopCounterMode


def einsum_flops(equation: str, *operands: torch.Tensor) -> int:
    with FlopCounterMode(display=False) as counter:
        torch.einsum(equation, *operands)
    return counter.get_total_flops()


for n in (64, 256):
    A, B, v = torch.randn(n, n), torch.randn(n, n), torch.randn(n)
    # Without the opt_einsum package, torch contracts left to right.
    # --8<-- [start:gist]
    with torch.backends.opt_einsum.flags(enabled=False):
        torch.testing.assert_close(torch.einsum("ij,jk,k->i", A, B, v),
                                   torch.einsum("k,jk,ij->i", v, B, A),
                                   rtol=1e-3, atol=1e-2)
        f1 = einsum_flops("ij,jk,k->i", A, B, v)
        f2 = einsum_flops("k,jk,ij->i", v, B, A)
    assert f1 == 2 * n**3 + 2 * n**2  # (A @ B) first: an n x n intermediate
    assert f2 == 2 * n**2 + 2 * n**2  # (B @ v) first: only vectors
    assert f1 / f2 == (n + 1) / 2  # the penalty grows with n
    # --8<-- [end:gist]
    print(f"n={n}: 'ij,jk,k->i' {f1} flops, 'k,jk,ij->i' {f2} flops, "
          f"ratio {f1 / f2} = (n + 1) / 2")
print("opt_einsum available here:", torch.backends.opt_einsum.is_available())

import torch

values = torch.randn(100_000)
# --8<-- [start:gist]
# the same numbers, added in eight different orders
sums = {values[torch.randperm(values.numel())].sum().item() for _ in range(8)}
assert len(sums) > 1  # float addition is not associative
assert max(sums) - min(sums) < 1e-3 * values.abs().sum()  # yet all close
# --8<-- [end:gist]
print(f"{len(sums)} different results from 8 orders, e.g.",
      ", ".join(f"{s:.9g}" for s in sorted(sums)[:2]))

# docexec: cuda
import os

# cuBLAS is deterministic only with this set before the first CUDA call
os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

import torch  # noqa: E402

# --8<-- [start:gist]
torch.backends.cudnn.benchmark = False  # no timing-based conv choice
torch.use_deterministic_algorithms(True)  # cudnn.deterministic and more
index = torch.randint(0, 10, (100_000,), device="cuda")
values = torch.randn(100_000, device="cuda")
sums = [torch.zeros(10, device="cuda").index_add_(0, index, values)
        for _ in range(2)]  # many additions into each slot
assert torch.equal(sums[0], sums[1])  # bit for bit, not only close
try:
    torch.histc(values, bins=10)  # no deterministic CUDA kernel
except RuntimeError as error:
    refused = str(error)
assert "does not have a deterministic implementation" in refused
# --8<-- [end:gist]
print("index_add_ twice, bitwise equal:", torch.equal(sums[0], sums[1]))
print("histc on CUDA:", refused.split(", but")[0])

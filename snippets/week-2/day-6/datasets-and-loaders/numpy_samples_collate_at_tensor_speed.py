import time

import numpy as np
import torch
from torch.utils.data import default_collate

torch.set_num_threads(1)
rng = np.random.default_rng(0)
arrays = [rng.random((3, 224, 224), dtype=np.float32) for _ in range(32)]
tensors = [torch.from_numpy(a) for a in arrays]

# no generic fallback: each array is wrapped without a copy, then stacked
# by the same torch.stack as tensors are
wrapped = torch.as_tensor(arrays[0])
assert np.shares_memory(wrapped.numpy(), arrays[0])
assert torch.equal(default_collate(arrays), default_collate(tensors))


def seconds(batch):
    start = time.perf_counter()
    default_collate(batch)
    return time.perf_counter() - start


# alternate the two, keep the best of 10 each: the machine is shared
best = {"numpy": float("inf"), "tensor": float("inf")}
for _ in range(10):
    best["numpy"] = min(best["numpy"], seconds(arrays))
    best["tensor"] = min(best["tensor"], seconds(tensors))
ratio = best["numpy"] / best["tensor"]
assert ratio < 1.5, ratio  # a wide margin around "the same"

print("batch:", tuple(default_collate(arrays).shape), "float32")
print(f"collate time, numpy samples / tensor samples: {ratio:.1f}")

# docexec: network
import torch.distributed as dist
from torch.utils.data import DistributedSampler

WORLD = 2
data = list(range(10))

# DDP does not split the data: each rank must be given its own part
parts = [list(DistributedSampler(data, num_replicas=WORLD, rank=r,
                                 shuffle=False)) for r in range(WORLD)]
assert sorted(parts[0] + parts[1]) == data
assert not set(parts[0]) & set(parts[1])  # no sample on both ranks
print("DistributedSampler indices per rank:", parts)

# the default backend per device type: gloo for CPUs, NCCL for CUDA GPUs
backends = dist.Backend.default_device_backend_map
assert backends["cpu"] == "gloo" and backends["cuda"] == "nccl"
print("default backends:", {k: backends[k] for k in ("cpu", "cuda")})

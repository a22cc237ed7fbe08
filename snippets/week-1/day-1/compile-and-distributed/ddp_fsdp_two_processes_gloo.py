# docexec: timeout=90
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import (
    allreduce_hook,
)
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor import DTensor
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DistributedSampler

WORLD = 2


def worker(rank, queue):
    # gloo runs on CPU; the FileStore in the working dir lets ranks meet
    store = dist.FileStore("rendezvous", WORLD)
    dist.init_process_group("gloo", store=store, rank=rank, world_size=WORLD)

    t = torch.tensor([rank + 1.0])
    dist.all_reduce(t)  # sum over ranks: 1 + 2

    # DDP: a different seed per rank, yet DDP starts every rank from rank
    # 0's weights (it broadcasts them); each rank gets different data
    torch.manual_seed(rank)
    ddp = DistributedDataParallel(nn.Linear(2, 1, bias=False))
    w0 = ddp.module.weight.tolist()
    during_backward = []

    def recording_allreduce(state, bucket):
        # -1 means "no backward pass is running" (a private helper)
        during_backward.append(torch._C._current_graph_task_id() != -1)
        return allreduce_hook(state, bucket)

    ddp.register_comm_hook(None, recording_allreduce)
    x = torch.full((1, 2), rank + 1.0)
    ddp(x).sum().backward()  # local grads are 1 and 2 -> averaged
    grad = ddp.module.weight.grad.tolist()

    # FSDP2: each rank keeps only its shard of every parameter
    torch.manual_seed(0)
    model = nn.Linear(4, 6)
    fully_shard(model, mesh=init_device_mesh("cpu", (WORLD,)))
    assert isinstance(model.weight, DTensor)
    in_forward = []  # what the layer sees while it runs: the full weight
    model.register_forward_pre_hook(
        lambda m, args: in_forward.append(
            (isinstance(m.weight, DTensor), tuple(m.weight.shape))))
    local = tuple(model.weight.to_local().shape)
    full = tuple(model.weight.full_tensor().shape)
    opt = torch.optim.Adam(model.parameters())
    model(torch.ones(2, 4)).sum().backward()
    opt.step()  # gradients and Adam moments are sharded like the weight
    assert in_forward == [(False, (6, 4))]  # gathered just in time...
    assert isinstance(model.weight, DTensor)  # ...and sharded again after
    g_local = tuple(model.weight.grad.to_local().shape)
    m_local = tuple(opt.state[model.weight]["exp_avg"].to_local().shape)

    queue.put((rank, t.item(), grad, all(during_backward), local, full,
               g_local, m_local, w0))
    dist.destroy_process_group()


# fork (not spawn): this script has no `if __name__ == "__main__"` guard
ctx = mp.get_context("fork")
queue = ctx.SimpleQueue()
mp.start_processes(worker, args=(queue,), nprocs=WORLD, start_method="fork")
results = sorted(queue.get() for _ in range(WORLD))
assert results[0][-1] == results[1][-1]  # same DDP weights on both ranks

for rank, total, grad, in_bwd, local, full, g_local, m_local, _ in results:
    assert total == 3.0
    assert grad == [[1.5, 1.5]]  # mean of 1 and 2, identical on both ranks
    assert in_bwd  # the gradient all-reduce ran inside backward()
    assert local == g_local == m_local == (3, 4) and full == (6, 4)
    print(f"rank {rank}: all_reduce -> {total}, DDP weight.grad -> {grad}, "
          f"all-reduced during backward: {in_bwd}")
    print(f"        FSDP weight {full}: local shard {local}, "
          f"grad shard {g_local}, Adam exp_avg shard {m_local}")

print("DDP initial weights equal on both ranks despite different seeds:",
      results[0][-1] == results[1][-1])

# DDP does not split the data: a DistributedSampler gives each rank its part
data = list(range(8))
parts = [list(DistributedSampler(data, num_replicas=WORLD, rank=r,
                                 shuffle=False)) for r in range(WORLD)]
assert sorted(parts[0] + parts[1]) == data
print("DistributedSampler indices per rank:", parts)

# the default backend per device type: gloo for CPUs, NCCL for CUDA GPUs
backends = dist.Backend.default_device_backend_map
assert backends["cpu"] == "gloo" and backends["cuda"] == "nccl"
print("default backends:", {k: backends[k] for k in ("cpu", "cuda")})

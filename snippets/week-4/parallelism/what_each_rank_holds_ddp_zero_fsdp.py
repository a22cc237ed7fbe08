# docexec: network
# docexec: timeout=120
import gc

import torch
import torch._dynamo  # noqa: F401  (imported once, before the ranks start)
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.distributed.tensor import DTensor
from torch.nn.parallel import DistributedDataParallel

WORLD = 2


def local(t):
    """Elements this rank stores of a parameter, gradient or state tensor."""
    return (t.to_local() if isinstance(t, DTensor) else t).numel()


def held(model, states):
    params = list(model.parameters())
    return (sum(local(p) for p in params), sum(local(p.grad) for p in params),
            sum(local(t) for s in states for t in s.values() if t.dim()))


def one_step(model, opt):
    model(torch.ones(4, 8)).sum().backward()
    opt.step()


def worker(rank, queue):
    dist.init_process_group(
        "gloo", store=dist.FileStore("rendezvous", WORLD), rank=rank,
        world_size=WORLD)
    torch.manual_seed(torch.initial_seed())  # the same model on each rank

    def net():  # two layers of 64 weights each: 128 parameters
        return nn.Sequential(nn.Linear(8, 8, bias=False),
                             nn.Linear(8, 8, bias=False))

    rows = {}
    # --8<-- [start:gist]
    ddp = DistributedDataParallel(net())  # every rank: the whole of all
    adam = torch.optim.Adam(ddp.parameters())
    # --8<-- [end:gist]
    one_step(ddp, adam)
    rows["DDP"] = held(ddp, adam.state.values())
    # --8<-- [start:gist]
    zero = DistributedDataParallel(net())  # ZeRO-1: optimizer state split
    zero_adam = ZeroRedundancyOptimizer(zero.parameters(), torch.optim.Adam)
    # --8<-- [end:gist]
    one_step(zero, zero_adam)
    rows["DDP + ZeroRedundancyOptimizer"] = held(
        zero, zero_adam.optim.state.values())
    # --8<-- [start:gist]
    fsdp = net()  # ZeRO-3: parameters, gradients and state all split
    for module in (fsdp[0], fsdp[1], fsdp):
        fully_shard(module, mesh=init_device_mesh("cpu", (WORLD,)))
    fsdp_adam = torch.optim.Adam(fsdp.parameters())
    # --8<-- [end:gist]
    one_step(fsdp, fsdp_adam)
    rows["FSDP (fully_shard)"] = held(fsdp, fsdp_adam.state.values())
    queue.put((rank, rows))
    del ddp, adam, zero, zero_adam, fsdp, fsdp_adam  # they hold the group
    gc.collect()  # with FSDP's hooks, which refer back to the model
    dist.destroy_process_group()


if __name__ == "__main__":
    queue = mp.get_context("spawn").SimpleQueue()
    mp.start_processes(worker, args=(queue,), nprocs=WORLD,
                       start_method="spawn")
    ranks = dict(queue.get() for _ in range(WORLD))
    for rows in ranks.values():  # elements: (params, grads, Adam state)
        assert rows["DDP"] == (128, 128, 256)
        assert rows["DDP + ZeroRedundancyOptimizer"] == (128, 128, 128)
        assert rows["FSDP (fully_shard)"] == (64, 64, 128)
    print(f"{'elements held by each rank':32} params  grads  Adam state")
    for name, (p, g, s) in ranks[0].items():
        print(f"{name:32} {p:6} {g:6} {s:11}")
    print("(rank 1 holds the same counts; 2 ranks, 128 parameters)")

# docexec: network
# docexec: timeout=120
import gc

import torch
import torch._dynamo  # noqa: F401  (imported once, before the fork)
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor import DTensor

WORLD = 2


def worker(rank, queue, seed):
    dist.init_process_group(
        "gloo", store=dist.FileStore("rendezvous", WORLD), rank=rank,
        world_size=WORLD)
    torch.manual_seed(seed)  # the engine seeded the parent, not the ranks
    model = nn.Linear(4, 6)
    # --8<-- [start:gist]
    fully_shard(model, mesh=init_device_mesh("cpu", (WORLD,)))
    assert isinstance(model.weight, DTensor)  # a sharded parameter
    opt = torch.optim.Adam(model.parameters())
    model(torch.ones(2, 4)).sum().backward()
    opt.step()  # the Adam moments are created with the weight's shape
    # --8<-- [end:gist]
    shapes = {
        "full weight": model.weight.full_tensor().shape,  # all-gathers
        "local weight": model.weight.to_local().shape,
        "local grad": model.weight.grad.to_local().shape,
        "local exp_avg": opt.state[model.weight]["exp_avg"].to_local().shape,
    }
    queue.put((rank, {k: tuple(v) for k, v in shapes.items()}))
    del opt, model  # they hold the process group: let them go first,
    gc.collect()  # with FSDP's hooks, which refer back to the model
    dist.destroy_process_group()


# spawn, not fork: a rank forked from a process that has run torch can hang
# in gloo; each spawned rank imports this file again, hence the guard
if __name__ == "__main__":
    queue = mp.get_context("spawn").SimpleQueue()
    mp.start_processes(worker, args=(queue, torch.initial_seed()), nprocs=WORLD,
                       start_method="spawn")
    for rank, shapes in sorted(queue.get() for _ in range(WORLD)):
        # --8<-- [start:gist]
        assert shapes["full weight"] == (6, 4)
        # each rank holds 3 of the 6 rows of the weight, its grad and its state
        assert (shapes["local weight"] == shapes["local grad"]
                == shapes["local exp_avg"] == (3, 4))
        # --8<-- [end:gist]
        print(f"rank {rank}:", shapes)

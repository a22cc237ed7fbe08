# docexec: network
# docexec: timeout=120
import os

import torch

# DDP imports torch._dynamo when first built: import it once, before the
# ranks are started, rather than once in each rank
import torch._dynamo  # noqa: F401
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.nn.parallel import DistributedDataParallel

WORLD = 2


def worker(rank, queue):
    dist.init_process_group(
        "gloo", store=dist.FileStore("rendezvous", WORLD), rank=rank,
        world_size=WORLD)
    torch.manual_seed(torch.initial_seed() + rank)  # each rank its own draw
    # --8<-- [start:gist]
    ddp = DistributedDataParallel(nn.Linear(2, 1, bias=False))
    at_wrap = ddp.module.weight.tolist()  # rank 0's weights, broadcast once
    with torch.no_grad():
        ddp.module.weight.add_(rank)  # a change on rank 1 only, afterwards
    # --8<-- [end:gist]
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
    for _ in range(3):  # each step all-reduces gradients, never weights
        opt.zero_grad()
        ddp(torch.randn(4, 2)).sum().backward()
        opt.step()
    queue.put((rank, os.getpid(), at_wrap, ddp.module.weight.tolist()))
    del opt, ddp  # they hold the process group: let them go first
    dist.destroy_process_group()


# spawn, not fork: a rank forked from a process that has run torch can hang
# in gloo; each spawned rank imports this file again, hence the guard
if __name__ == "__main__":
    queue = mp.get_context("spawn").SimpleQueue()
    mp.start_processes(worker, args=(queue,), nprocs=WORLD,
                       start_method="spawn")
    (_, pid0, wrap0, end0), (_, pid1, wrap1, end1) = sorted(
        queue.get() for _ in range(WORLD))
    # --8<-- [start:gist]
    assert pid0 != pid1 != os.getpid()  # one process per rank
    assert wrap0 == wrap1  # identical right after wrapping
    # after 3 steps of SGD, all-reducing only gradients: the change stays
    delta = torch.tensor(end1) - torch.tensor(end0)
    torch.testing.assert_close(delta, torch.ones(1, 2))  # the drift stays
    # --8<-- [end:gist]
    print("each rank its own process:", pid0 != pid1)
    print("weights equal after wrapping:", wrap0 == wrap1)
    print("rank 1 minus rank 0 after 3 steps:",
          delta.round(decimals=4).tolist())

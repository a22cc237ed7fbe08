# docexec: network
# docexec: timeout=120
import torch

# DDP imports torch._dynamo when first built: import it once, before the
# ranks are forked, rather than once in each rank
import torch._dynamo  # noqa: F401
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import (
    allreduce_hook,
)
from torch.nn.parallel import DistributedDataParallel

WORLD = 2


def worker(rank, queue, seed):
    # gloo runs on CPUs; the FileStore in the working folder lets ranks meet
    dist.init_process_group(
        "gloo", store=dist.FileStore("rendezvous", WORLD), rank=rank,
        world_size=WORLD)
    # --8<-- [start:gist]
    torch.manual_seed(seed + rank)  # a different seed per rank, yet ...
    ddp = DistributedDataParallel(nn.Linear(2, 1, bias=False))
    start = ddp.module.weight.tolist()  # ... rank 0's weights, broadcast
    # --8<-- [end:gist]
    in_backward = []

    def recording_allreduce(state, bucket):
        # -1 means "no backward pass is running" (a private helper)
        in_backward.append(torch._C._current_graph_task_id() != -1)
        return allreduce_hook(state, bucket)  # DDP's default: the mean

    ddp.register_comm_hook(None, recording_allreduce)
    # --8<-- [start:gist]
    x = torch.full((1, 2), rank + 1.0)  # each rank its own batch
    ddp(x).sum().backward()  # local gradients: [1, 1] and [2, 2]
    # --8<-- [end:gist]
    queue.put((rank, start, ddp.module.weight.grad.tolist(), in_backward))
    del ddp  # it holds the process group: let it go first
    dist.destroy_process_group()


# spawn, not fork: a rank forked from a process that has run torch can hang
# in gloo; each spawned rank imports this file again, hence the guard
if __name__ == "__main__":
    queue = mp.get_context("spawn").SimpleQueue()
    mp.start_processes(worker, args=(queue, torch.initial_seed()), nprocs=WORLD,
                       start_method="spawn")
    results = sorted(queue.get() for _ in range(WORLD))

    (_, start0, grad0, bwd0), (_, start1, grad1, bwd1) = results
    # --8<-- [start:gist]
    assert start0 == start1  # same initial weights despite different seeds
    assert grad0 == grad1 == [[1.5, 1.5]]  # the mean of [1, 1] and [2, 2]
    assert bwd0 == bwd1 == [True]  # one all-reduce, run inside backward()
    # --8<-- [end:gist]
    print("initial weights equal on both ranks:", start0 == start1)
    print("weight.grad on rank 0 and 1:", grad0, grad1)
    print("all-reduces run inside backward():", bwd0, bwd1)

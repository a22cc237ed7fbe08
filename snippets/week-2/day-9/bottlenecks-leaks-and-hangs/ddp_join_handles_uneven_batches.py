# docexec: network
# docexec: timeout=120
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DistributedSampler

WORLD = 2


def worker(rank, started, queue, seed):
    started.wait()  # every rank has started: the timeout is for the collectives
    dist.init_process_group(
        "gloo", store=dist.FileStore("rendezvous", WORLD), rank=rank,
        world_size=WORLD, timeout=timedelta(seconds=5))
    torch.manual_seed(seed)  # the engine seeded the parent, not the ranks
    model = DistributedDataParallel(nn.Linear(4, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    # --8<-- [start:gist]
    batches = [torch.randn(8, 4) for _ in range(3 - rank)]  # 3 vs 2
    # join(): a rank that runs out of batches keeps answering the others'
    # gradient all_reduces (with zeros) instead of leaving them waiting
    with model.join():
        for x in batches:
            opt.zero_grad()
            model(x).pow(2).mean().backward()
            opt.step()
    # --8<-- [end:gist]
    queue.put((rank, len(batches), model.module.weight.tolist()))
    del model  # it holds the process group: let it go first
    dist.destroy_process_group()


# spawn, not fork: a rank forked from a process that has run torch can hang
# in gloo; each spawned rank imports this file again, hence the guard
if __name__ == "__main__":
    context = mp.get_context("spawn")
    started, queue = context.Barrier(WORLD), context.SimpleQueue()
    mp.start_processes(worker, args=(started, queue, torch.initial_seed()),
                       nprocs=WORLD, start_method="spawn")
    results = sorted(queue.get() for _ in range(WORLD))

    # --8<-- [start:gist]
    (_, steps0, weight0), (_, steps1, weight1) = results
    assert (steps0, steps1) == (3, 2) and weight0 == weight1
    # --8<-- [end:gist]
    print(f"rank 0 trained {steps0} steps, rank 1 {steps1}: both finished")
    print("weights identical on both ranks:", weight0 == weight1)

    # DistributedSampler avoids the problem by padding: 5 samples, 2 ranks
    sizes = [len(DistributedSampler(range(5), num_replicas=WORLD, rank=r))
             for r in range(WORLD)]
    assert sizes == [3, 3]
    print("DistributedSampler: samples per rank for 5 samples:", sizes)

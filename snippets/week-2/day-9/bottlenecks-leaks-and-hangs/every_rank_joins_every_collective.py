# docexec: network
# docexec: timeout=120
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

WORLD = 2


def worker(rank, started, queue):
    started.wait()  # every rank has started: the timeout is for the collectives
    dist.init_process_group(
        "gloo", store=dist.FileStore("rendezvous", WORLD), rank=rank,
        world_size=WORLD, timeout=timedelta(seconds=2))
    means = []
    # --8<-- [start:gist]
    for step in range(3):
        empty = rank == 1 and step == 1  # rank 1 has no data this step
        grad_sum = torch.tensor([0.0 if empty else 10.0 * step])
        count = torch.tensor([0.0 if empty else 1.0])
        # still join the collective, contributing nothing: no skipped call
        dist.all_reduce(grad_sum)
        dist.all_reduce(count)
        means.append((grad_sum / count).item())
    # --8<-- [end:gist]
    dist.barrier()
    queue.put((rank, means))
    dist.destroy_process_group()


# spawn, not fork: a rank forked from a process that has run torch can hang
# in gloo; each spawned rank imports this file again, hence the guard
if __name__ == "__main__":
    context = mp.get_context("spawn")
    started, queue = context.Barrier(WORLD), context.SimpleQueue()
    mp.start_processes(worker, args=(started, queue), nprocs=WORLD,
                       start_method="spawn")
    results = sorted(queue.get() for _ in range(WORLD))

    # --8<-- [start:gist]
    for rank, means in results:
        assert means == [0.0, 10.0, 20.0]  # step 1: only rank 0's 10 counts
    # --8<-- [end:gist]
        print(f"rank {rank}: mean gradient per step {means}: finished")

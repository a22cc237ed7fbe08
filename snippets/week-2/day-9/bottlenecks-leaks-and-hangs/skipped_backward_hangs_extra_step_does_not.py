# docexec: timeout=120 network
import os
import re
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.nn.parallel import DistributedDataParallel

WORLD = 2


def worker(rank, started, queue, errors_seen, seed):
    started.wait()  # every rank has started: the timeout is for the collectives
    dist.init_process_group(
        "gloo", store=dist.FileStore("rendezvous", WORLD), rank=rank,
        world_size=WORLD, timeout=timedelta(seconds=2))  # default: 30 min
    torch.manual_seed(seed)  # the engine seeded the parent, not the ranks
    model = DistributedDataParallel(nn.Linear(4, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(8, 4)
    done = []
    try:
        for step in range(3):
            opt.zero_grad()
            loss = model(x).pow(2).mean()
            # --8<-- [start:gist]
            if rank == 1 and step == 2:
                done.append("skipped backward")  # e.g. a NaN-loss guard
                continue
            loss.backward()  # DDP's gradient all_reduce happens here
            opt.step()
            if rank == 1 and step == 0:
                opt.step()  # an extra step: local, nothing to match
            # --8<-- [end:gist]
            done.append(f"step {step}")
        end = "finished"
    except RuntimeError as error:
        end = re.sub(r"^\[.*?\] ", "", str(error)).split(". ")[0]
    queue.put((rank, done, end, model.module.weight.tolist()))
    errors_seen.wait()  # let rank 0 time out before rank 1 disconnects
    if end != "finished":
        # DDP's reducer still holds the all_reduce that timed out: tearing
        # it down can abort the process (std::terminate), so leave at once
        os._exit(0)
    del model  # it holds the process group: let it go first
    dist.destroy_process_group()


# spawn, not fork: a rank forked from a process that has run torch can hang
# in gloo; each spawned rank imports this file again, hence the guard
if __name__ == "__main__":
    context = mp.get_context("spawn")
    started, errors_seen = context.Barrier(WORLD), context.Barrier(WORLD)
    queue = context.SimpleQueue()
    mp.start_processes(worker,
                       args=(started, queue, errors_seen, torch.initial_seed()),
                       nprocs=WORLD, start_method="spawn")
    results = sorted(queue.get() for _ in range(WORLD))
    (_, done0, end0, w0), (_, done1, end1, w1) = results

    # the extra step() on rank 1 hung nothing: steps 0 and 1 finished on
    # both ranks, with weights that now differ between the ranks
    # --8<-- [start:gist]
    assert done0[:2] == done1[:2] == ["step 0", "step 1"]
    assert w0 != w1
    # the skipped backward did: rank 0's all_reduce found no partner
    assert end1 == "finished" and done1[2] == "skipped backward"
    assert done0 == ["step 0", "step 1"] and "Timed out" in end0, end0
    # --8<-- [end:gist]
    for rank, done, end, _ in results:
        print(f"rank {rank}: {', '.join(done)}, then: {end}")
    print("weights equal on both ranks:", w0 == w1)

# docexec: network
# docexec: timeout=120
import re
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.distributed.constants import default_pg_timeout

WORLD = 2


def worker(rank, started, queue, errors_seen):
    started.wait()  # every rank has started: the timeout is for the collectives
    dist.init_process_group(
        "gloo", store=dist.FileStore("rendezvous", WORLD), rank=rank,
        world_size=WORLD, timeout=timedelta(seconds=2))  # default: 30 min
    sums = []
    try:
        # --8<-- [start:gist]
        for step in range(3):
            if rank == 1 and step == 1:
                continue  # e.g. an empty batch: rank 1 skips this all_reduce
            grad = torch.tensor([10.0 * step])
            dist.all_reduce(grad)  # every rank must make the same calls
            sums.append(grad.item())
        # --8<-- [end:gist]
        dist.barrier()
        queue.put((rank, sums, "finished"))
    except RuntimeError as error:
        queue.put((rank, sums, re.sub(r"^\[.*?\] ", "", str(error))))
    errors_seen.wait()  # let both ranks time out before either disconnects
    dist.destroy_process_group()


# spawn, not fork: a rank forked from a process that has run torch can hang
# in gloo; each spawned rank imports this file again, hence the guard
if __name__ == "__main__":
    context = mp.get_context("spawn")
    started, errors_seen = context.Barrier(WORLD), context.Barrier(WORLD)
    queue = context.SimpleQueue()
    mp.start_processes(worker, args=(started, queue, errors_seen), nprocs=WORLD,
                       start_method="spawn")
    results = sorted(queue.get() for _ in range(WORLD))

    assert default_pg_timeout == timedelta(minutes=30)
    # --8<-- [start:gist]
    ends = [end for _, _, end in results]
    assert "finished" not in ends  # both ranks stop with an error
    # --8<-- [end:gist]
    # the first rank to time out drops its connections: the other rank sees
    # its own timeout or, when it comes first, "Connection closed by peer"
    assert any(end.startswith("Timed out") for end in ends)
    assert all(end.startswith(("Timed out", "Connection closed by peer"))
               for end in ends)
    (_, sums0, _), (_, sums1, _) = results
    # --8<-- [start:gist]
    # rank 0's step-1 all_reduce met rank 1's step-2 one: 10 + 20, not 10 + 10
    assert sums0 == [0.0, 30.0] and sums1 == [0.0, 30.0]
    # --8<-- [end:gist]
    for rank, sums, end in results:
        reason = end.split(" [")[0].split(". ")[0]  # without the peer's port
        print(f"rank {rank}: all_reduce results {sums}, then: {reason}")
    print("without timeout=, the ranks would wait", default_pg_timeout)

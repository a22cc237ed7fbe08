# docexec: network
# docexec: timeout=120
import os
import re
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

WORLD = 2
# --8<-- [start:gist]
# usually set in the shell: TORCH_DISTRIBUTED_DEBUG=DETAIL torchrun ...
os.environ["TORCH_DISTRIBUTED_DEBUG"] = "DETAIL"
# --8<-- [end:gist]


def worker(rank, started, queue, errors_seen):
    dist.set_debug_level_from_env()  # read at import, which came first here
    started.wait()  # every rank has started: the timeout is for the collectives
    dist.init_process_group(
        "gloo", store=dist.FileStore("rendezvous", WORLD), rank=rank,
        world_size=WORLD, timeout=timedelta(seconds=2))
    sums = []
    try:
        # --8<-- [start:gist]
        for step in range(3):
            if rank == 1 and step == 1:
                continue  # the same bug: rank 1 skips one all_reduce
            grad = torch.tensor([10.0 * step])
            dist.all_reduce(grad)
            sums.append(grad.item())
        # --8<-- [end:gist]
        dist.barrier()
        queue.put((rank, sums, "finished"))
    except RuntimeError as error:
        queue.put((rank, sums, str(error)))
    errors_seen.wait()
    dist.destroy_process_group()


def running(message, rank):
    """The collective that `message` says `rank` was running."""
    found = re.search(rf"Rank {rank} is running collective: "
                      r"CollectiveFingerPrint\(SequenceNumber=(\d+),? ?"
                      r"OpType=(\w+)", message)
    return f"{found[2]} (collective #{found[1]})"


# spawn, not fork: a rank forked from a process that has run torch can hang
# in gloo; each spawned rank imports this file again, hence the guard
if __name__ == "__main__":
    context = mp.get_context("spawn")
    started, errors_seen = context.Barrier(WORLD), context.Barrier(WORLD)
    queue = context.SimpleQueue()
    mp.start_processes(worker, args=(started, queue, errors_seen), nprocs=WORLD,
                       start_method="spawn")
    results = sorted(queue.get() for _ in range(WORLD))

    # --8<-- [start:gist]
    for rank, sums, message in results:
        assert message.startswith("Detected mismatch between collectives")
        assert "Timed out" not in message  # caught at once, not after 2 s
        assert sums == [0.0, 30.0]  # the first wrong pairing still got through
    # --8<-- [end:gist]
        print(f"rank {rank}: all_reduce results {sums}, then:")
        print(f"    {message.split('. ')[0]}: rank {rank} runs",
              running(message, rank))

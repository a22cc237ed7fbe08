# docexec: network
# docexec: timeout=120
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import (
    allreduce_hook,
)
from torch.nn.parallel import DistributedDataParallel

WORLD = 2


def worker(rank, queue, seed):
    dist.init_process_group(
        "gloo", store=dist.FileStore("rendezvous", WORLD), rank=rank,
        world_size=WORLD)
    torch.manual_seed(seed)  # the engine seeded the parent, not the ranks
    model = nn.Sequential(*[nn.Linear(256, 256) for _ in range(4)])
    # --8<-- [start:gist]
    # a bucket closes once it holds bucket_cap_mb MiB (default 25); each
    # layer has 257 KiB of gradients, so here every layer is a bucket
    ddp = DistributedDataParallel(model, bucket_cap_mb=0.25)
    # --8<-- [end:gist]
    events = []  # what happens during backward, in order
    for i, layer in enumerate(model):
        layer.weight.register_hook(
            lambda grad, i=i: events.append(f"grad {i}"))

    layer_of = {p: int(n.split(".")[0]) for n, p in model.named_parameters()}

    def recording_allreduce(state, bucket):
        layers = sorted({layer_of[p] for p in bucket.parameters()})
        events.append(f"all-reduce {layers}")
        return allreduce_hook(state, bucket)

    ddp.register_comm_hook(None, recording_allreduce)
    for step in range(2):
        events.clear()
        ddp(torch.randn(8, 256)).sum().backward()
        queue.put((rank, step, list(events)))
    dist.barrier()  # both ranks done before either tears the group down
    del ddp, model  # DDP holds the process group: let it go first
    dist.destroy_process_group()


# spawn, not fork: a forked gloo rank hung in about one run of six; each
# spawned rank imports this file again, so the start is under the guard
if __name__ == "__main__":
    queue = mp.get_context("spawn").SimpleQueue()
    mp.start_processes(worker, args=(queue, torch.initial_seed()), nprocs=WORLD,
                       start_method="spawn")
    results = sorted(queue.get() for _ in range(2 * WORLD))
    first, second = results[0][2], results[1][2]  # rank 0, steps 0 and 1

    # --8<-- [start:gist]
    # step 0: DDP does not know the order yet, so one bucket at the end
    assert first == ["grad 3", "grad 2", "grad 1", "grad 0",
                     "all-reduce [0, 1, 2, 3]"]
    # from step 1: buckets rebuilt in the order gradients arrived, and each
    # all-reduce starts while backward still computes the earlier layers
    assert second == ["grad 3", "all-reduce [3]", "grad 2", "all-reduce [2]",
                      "grad 1", "all-reduce [1]", "grad 0", "all-reduce [0]"]
    # --8<-- [end:gist]
    assert results[2][2] == first and results[3][2] == second  # rank 1 alike
    print("step 0:", " | ".join(first))
    print("step 1:", " | ".join(second))

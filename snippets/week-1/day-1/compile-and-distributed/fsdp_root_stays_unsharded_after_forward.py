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


def held(param) -> str:
    """What this rank holds of a parameter right now."""
    if isinstance(param, DTensor):
        return f"shard {tuple(param.to_local().shape)}"
    return f"full {tuple(param.shape)}"


def worker(rank, queue, seed):
    dist.init_process_group(
        "gloo", store=dist.FileStore("rendezvous", WORLD), rank=rank,
        world_size=WORLD)
    torch.manual_seed(seed)  # the engine seeded the parent, not the ranks
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 6))
    mesh = init_device_mesh("cpu", (WORLD,))
    # --8<-- [start:gist]
    fully_shard(model[0], mesh=mesh)  # a child: its own unit
    fully_shard(model, mesh=mesh)  # the root: owns model[2]'s parameters
    # --8<-- [end:gist]
    seen = {}

    def record(moment):
        seen[moment] = (held(model[0].weight), held(model[2].weight))

    model[0].register_forward_pre_hook(lambda m, a: record("child runs"))
    model[2].register_forward_pre_hook(lambda m, a: record("root runs"))
    record("before forward")
    out = model(torch.ones(2, 4))
    record("after forward")
    out.sum().backward()
    record("after backward")
    queue.put((rank, seen))
    model = mesh = record = None  # they hold the process group: let it go
    gc.collect()  # first, with the hooks that refer back to the model
    dist.destroy_process_group()


# spawn, not fork: a rank forked from a process that has run torch can hang
# in gloo; each spawned rank imports this file again, hence the guard
if __name__ == "__main__":
    queue = mp.get_context("spawn").SimpleQueue()
    mp.start_processes(worker, args=(queue, torch.initial_seed()), nprocs=WORLD,
                       start_method="spawn")
    results = sorted(queue.get() for _ in range(WORLD))
    seen = results[0][1]
    assert results[1][1] == seen  # both ranks alike

    # --8<-- [start:gist]
    assert seen["before forward"] == ("shard (4, 4)", "shard (3, 8)")
    assert seen["child runs"][0] == "full (8, 4)"  # gathered just in time
    assert seen["root runs"][1] == "full (6, 8)"
    # default reshard_after_forward=None: True for the child, False for the
    # root, whose parameters backward needs first
    assert seen["after forward"] == ("shard (4, 4)", "full (6, 8)")
    assert seen["after backward"] == ("shard (4, 4)", "shard (3, 8)")
    # --8<-- [end:gist]
    print(f"{'moment':15} {'child weight':13} root's weight")
    for moment, (child, root) in seen.items():
        print(f"{moment:15} {child:13} {root}")

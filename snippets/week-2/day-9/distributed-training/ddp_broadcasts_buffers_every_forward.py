# docexec: network
# docexec: timeout=120
import torch

# DDP imports torch._dynamo when first built: import it once, before the
# ranks are started, rather than once in each rank
import torch._dynamo  # noqa: F401
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.nn.parallel import DistributedDataParallel

WORLD = 2


def two_forwards(sync):
    """BatchNorm's running mean after forward 1, and as forward 2 reaches it."""
    model = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3))
    # forward_sync_buffers: broadcast_buffers' name from torch 2.13 on
    ddp = DistributedDataParallel(model, forward_sync_buffers=sync)
    bn, seen = model[1], []
    bn.register_forward_pre_hook(
        lambda module, args: seen.append(module.running_mean.tolist()))
    # --8<-- [start:gist]
    ddp(torch.randn(8, 4))  # forward 1: each rank updates from its batch
    after_first = bn.running_mean.tolist()
    ddp(torch.randn(8, 4))  # forward 2: what does BatchNorm start from?
    # --8<-- [end:gist]
    return after_first, seen[1]


def worker(rank, seed, queue):
    dist.init_process_group(
        "gloo", store=dist.FileStore("rendezvous", WORLD), rank=rank,
        world_size=WORLD)
    torch.manual_seed(seed + rank)  # each rank its own batches
    queue.put((rank, two_forwards(sync=True), two_forwards(sync=False)))
    dist.destroy_process_group()


# spawn, not fork: a rank forked from a process that has run torch can hang
# in gloo; each spawned rank imports this file again, hence the guard
if __name__ == "__main__":
    queue = mp.get_context("spawn").SimpleQueue()
    mp.start_processes(worker, args=(torch.initial_seed(), queue),
                       nprocs=WORLD, start_method="spawn")
    got = {rank: (synced, kept) for rank, synced, kept in
           (queue.get() for _ in range(WORLD))}
    (after0, _), (after1, start1) = got[0][0], got[1][0]
    (own0, _), (own1, own_start1) = got[0][1], got[1][1]
    # --8<-- [start:gist]
    assert after0 != after1  # after forward 1 the ranks' statistics differ
    # DDP's default: at the next forward rank 1 starts from rank 0's buffers
    assert start1 == after0
    # forward_sync_buffers=False: each rank keeps its own running statistics
    assert own_start1 == own1 != own0
    # --8<-- [end:gist]

    def shown(values):
        return [round(v, 3) for v in values]

    print("running_mean after forward 1, rank 0:", shown(after0))
    print("running_mean after forward 1, rank 1:", shown(after1))
    print("rank 1's at forward 2, syncing buffers:", shown(start1),
          "(rank 0's)")
    print("rank 1's at forward 2, forward_sync_buffers=False:",
          shown(own_start1), "(its own)")

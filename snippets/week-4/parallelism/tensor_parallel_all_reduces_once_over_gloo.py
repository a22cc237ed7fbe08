# docexec: network
# docexec: timeout=120
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn.functional as F

WORLD = 2


def worker(rank, queue):
    dist.init_process_group(
        "gloo", store=dist.FileStore("rendezvous", WORLD), rank=rank,
        world_size=WORLD)
    torch.manual_seed(0)  # fixed seed: every rank draws the same full layer
    x, w1, b1 = torch.randn(3, 4), torch.randn(6, 4), torch.randn(6)
    w2, b2 = torch.randn(2, 6), torch.randn(2)
    full = F.linear(F.gelu(F.linear(x, w1, b1)), w2, b2)
    # --8<-- [start:gist]
    cols = torch.arange(6).tensor_split(WORLD)[rank]  # this rank's features
    h = F.gelu(F.linear(x, w1[cols], b1[cols]))  # column-parallel
    y = F.linear(h, w2[:, cols], b2 if rank == 0 else None)  # row-parallel
    dist.all_reduce(y)  # the sum of the partials: one collective
    # --8<-- [end:gist]
    queue.put((rank, torch.allclose(y, full, atol=1e-6), y.tolist()))
    dist.destroy_process_group()


# spawn, not fork: a rank forked from a process that has run torch can hang
# in gloo; each spawned rank imports this file again, hence the guard
if __name__ == "__main__":
    queue = mp.get_context("spawn").SimpleQueue()
    mp.start_processes(worker, args=(queue,), nprocs=WORLD,
                       start_method="spawn")
    results = sorted(queue.get() for _ in range(WORLD))
    assert all(equal for _, equal, _ in results)
    assert results[0][2] == results[1][2]
    for rank, equal, _ in results:
        print(f"rank {rank}: all-reduced output equals the full MLP: {equal}")

# docexec: network
import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import (
    allreduce_hook,
)
from torch.nn.parallel import DistributedDataParallel

dist.init_process_group("gloo", store=dist.FileStore("rendezvous", 1),
                        rank=0, world_size=1)
model = DistributedDataParallel(nn.Linear(4, 1))
all_reduces = []


def counting_allreduce(state, bucket):
    all_reduces.append(bucket.index())
    return allreduce_hook(state, bucket)  # DDP's default, counted


model.register_comm_hook(None, counting_allreduce)
micro_batches = torch.randn(4, 8, 4).unbind()  # 4 micro-batches of 8

# --8<-- [start:gist]
with model.no_sync():  # every forward inside, the last one too
    losses = [model(x).sum() for x in micro_batches]
for loss in losses[:-1]:
    loss.backward()
losses[-1].backward()  # the last backward outside no_sync()...
assert all_reduces == []  # ...sends nothing: its forward ran inside
# --8<-- [end:gist]
print("all-reduces, last backward outside no_sync:", len(all_reduces))
del model  # it holds the process group: let it go first
dist.destroy_process_group()

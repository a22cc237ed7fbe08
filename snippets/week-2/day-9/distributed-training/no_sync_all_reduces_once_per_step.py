# docexec: network
import contextlib
import copy

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import (
    allreduce_hook,
)
from torch.nn.parallel import DistributedDataParallel

dist.init_process_group("gloo", store=dist.FileStore("rendezvous", 1),
                        rank=0, world_size=1)
plain = nn.Linear(4, 1)
model = DistributedDataParallel(copy.deepcopy(plain))
all_reduces = []


def counting_allreduce(state, bucket):
    all_reduces.append(bucket.index())
    return allreduce_hook(state, bucket)  # DDP's default, counted


model.register_comm_hook(None, counting_allreduce)
micro_batches = torch.randn(4, 8, 4).unbind()  # 4 micro-batches of 8

# --8<-- [start:gist]
for i, x in enumerate(micro_batches):
    last = i == len(micro_batches) - 1
    # skip the all-reduce on every micro-batch but the last
    with contextlib.nullcontext() if last else model.no_sync():
        model(x).sum().backward()  # grads accumulate locally
assert len(all_reduces) == 1  # one all-reduce for four backward passes
# --8<-- [end:gist]
print("all-reduces for 4 micro-batches under no_sync:", len(all_reduces))

for x in micro_batches:  # the same accumulation without DDP
    plain(x).sum().backward()
# the one all-reduce carried the sum of all four micro-batches' gradients
torch.testing.assert_close(model.module.weight.grad, plain.weight.grad)
print("accumulated grad equals 4 plain backward passes:", True)

model.zero_grad()
all_reduces.clear()
for x in micro_batches:  # without no_sync: one all-reduce per backward
    model(x).sum().backward()
assert len(all_reduces) == 4
print("all-reduces for 4 micro-batches without no_sync:", len(all_reduces))

all_reduces.clear()
with model.no_sync():  # the mistake: the last backward inside it too
    for x in micro_batches:
        model(x).sum().backward()
assert all_reduces == []  # nothing sent: each rank keeps its own gradient
print("all-reduces with every backward under no_sync:", len(all_reduces))
del model  # it holds the process group: let it go first
dist.destroy_process_group()

# docexec: network
# docexec: raises=RuntimeError match="Expected to have finished reduction"
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel

# one rank is enough: the check is local to each process
dist.init_process_group("gloo", store=dist.FileStore("rendezvous", 1),
                        rank=0, world_size=1)


class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.used, self.unused = nn.Linear(2, 1), nn.Linear(2, 1)

    def forward(self, x):
        return self.used(x)  # self.unused never joins the graph


# --8<-- [start:gist]
model = DistributedDataParallel(TwoHeads())
model(torch.ones(1, 2)).sum().backward()  # passes: nothing checks yet
print("first step done; unused.weight.grad:", model.module.unused.weight.grad)
model(torch.ones(1, 2))  # the next forward finds the reduction unfinished
# --8<-- [end:gist]

# docexec: network
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel

dist.init_process_group("gloo", store=dist.FileStore("rendezvous", 1),
                        rank=0, world_size=1)


class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.used, self.unused = nn.Linear(2, 1), nn.Linear(2, 1)

    def forward(self, x):
        return self.used(x)


net = TwoHeads()
# --8<-- [start:gist]
net.unused.requires_grad_(False)  # frozen before wrapping ...
model = DistributedDataParallel(net)  # ... so DDP never waits for it
for _ in range(3):  # no error, and no find_unused_parameters
    model(torch.ones(1, 2)).sum().backward()
# --8<-- [end:gist]
assert net.used.weight.grad is not None
print("3 steps with a frozen head, no flag: no error")
del model  # it holds the process group: let it go first
dist.destroy_process_group()

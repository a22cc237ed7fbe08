# docexec: network
import os
import tempfile

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

    def forward(self, x, both=False):
        y = self.used(x)
        return y + self.unused(x) if both else y


def steps(model, both, count=3):
    """Runs `count` steps; returns what torch's C++ side wrote to stderr."""
    with tempfile.TemporaryFile() as log:
        saved = os.dup(2)
        os.dup2(log.fileno(), 2)  # the reducer warns from C++, not by warnings
        try:
            for _ in range(count):
                model(torch.ones(1, 2), both).sum().backward()
        finally:
            os.dup2(saved, 2)
        log.seek(0)
        return log.read().decode()


# --8<-- [start:gist]
model = DistributedDataParallel(TwoHeads(), find_unused_parameters=True)
steps(model, both=False)  # three steps that leave self.unused out
assert model.module.unused.weight.grad is None  # marked ready, no gradient
# --8<-- [end:gist]
print("3 steps with an unused head; its grad:", model.module.unused.weight.grad)

# when every parameter is used after all, DDP says what the flag costs
every = DistributedDataParallel(TwoHeads(), find_unused_parameters=True)
stderr = steps(every, both=True)
# --8<-- [start:gist]
assert "extra traversal of the autograd graph every iteration" in stderr
# --8<-- [end:gist]
print("with no unused parameter, DDP warns:")
print(" ", stderr[stderr.index("find_unused"):].split(". ")[1] + ".")
del model, every  # they hold the process group: let them go first
dist.destroy_process_group()

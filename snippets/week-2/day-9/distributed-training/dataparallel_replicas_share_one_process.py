# docexec: cuda
import copy
import os
import threading

import torch
from torch import nn
from torch.nn.parallel import parallel_apply

seen = []


class Recorder(nn.Module):
    def forward(self, x):
        seen.append((os.getpid(), threading.get_ident()))
        return x * 2


# DataParallel's third step, as it runs its replicas (here two, on GPU 0)
# --8<-- [start:gist]
replicas = [Recorder(), copy.deepcopy(Recorder())]
inputs = [(torch.ones(2, device="cuda"),), (torch.ones(2, device="cuda"),)]
outputs = parallel_apply(replicas, inputs, devices=[0, 0])
pids = {pid for pid, _ in seen}
threads = {thread for _, thread in seen}
assert pids == {os.getpid()}  # one process, this one ...
assert len(threads) == 2 and threading.get_ident() not in threads
# --8<-- [end:gist]
assert all(torch.equal(out, torch.full((2,), 2.0, device="cuda"))
           for out in outputs)
print("replicas ran in this process:", pids == {os.getpid()})
print("... each in a thread of its own:", len(threads), "threads")

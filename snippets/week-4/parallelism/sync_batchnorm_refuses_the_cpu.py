# docexec: network
# docexec: raises=ValueError match="expected input tensor to be on GPU"
import torch
import torch.distributed as dist

dist.init_process_group("gloo", store=dist.FileStore("rendezvous", 1),
                        rank=0, world_size=1)
bn = torch.nn.SyncBatchNorm(3)  # in training mode, inside a process group
bn(torch.randn(4, 3))  # a CPU tensor: refused

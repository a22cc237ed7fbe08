# docexec: cuda
import torch

x = torch.arange(4.0)
last = torch.cuda.device_count() - 1  # 0 on a single-GPU machine

# "the default GPU" is really the CURRENT device, which code can change
with torch.cuda.device(last):
    assert torch.cuda.current_device() == last
    assert x.cuda().device == torch.device("cuda", last)
    assert x.to("cuda").device == torch.device("cuda", last)  # same rule

# both accept an explicit device
assert x.cuda(0).device == x.to("cuda:0").device == torch.device("cuda", 0)

# both return self when the tensor is already where it should be
g = x.to("cuda:0")
assert g.cuda(0) is g and g.to("cuda:0") is g

# only .to changes device and dtype in one call
h = x.to("cuda:0", torch.float16)
assert h.dtype == torch.float16 and h.is_cuda

# both take non_blocking; it is asynchronous only from pinned memory
p = x.pin_memory()
a = p.cuda(non_blocking=True)
b = p.to("cuda", non_blocking=True)
torch.cuda.synchronize()  # wait before relying on the values
assert torch.equal(a.cpu(), x) and torch.equal(b.cpu(), x)

print("GPUs:", torch.cuda.device_count(), "| used current device:", last)
print("x.cuda() device:", x.cuda().device)
print("g.cuda(0) is g:", g.cuda(0) is g)

# docexec: cuda
import torch

x = torch.arange(4.0)
gpus = torch.cuda.device_count()

# --8<-- [start:gist]
# "current" and "GPU 0" can only be told apart with a second GPU
if gpus >= 2:
    with torch.cuda.device(1):  # GPU 1 becomes the current device
        assert torch.cuda.current_device() == 1
        assert x.cuda().device == torch.device("cuda", 1)
        assert x.to("cuda").device == torch.device("cuda", 1)  # same rule
    assert x.cuda().device == torch.device("cuda", 0)  # back to GPU 0
# --8<-- [end:gist]
    print("inside torch.cuda.device(1): x.cuda() on cuda:1, "
          "x.to('cuda') on cuda:1")
else:
    print("one GPU: the current device is GPU 0, so this machine cannot "
          "tell them apart")

# both accept an explicit device
assert x.cuda(0).device == x.to("cuda:0").device == torch.device("cuda", 0)

# both return self when the tensor is already where it should be
# --8<-- [start:gist]
g = x.to("cuda:0")
assert g.cuda(0) is g and g.to("cuda:0") is g
# --8<-- [end:gist]

# only .to changes device and dtype in one call
# --8<-- [start:gist]
h = x.to("cuda:0", torch.float16)
assert h.dtype == torch.float16 and h.is_cuda
# --8<-- [end:gist]
print("GPUs:", gpus, "| g.cuda(0) is g:", g.cuda(0) is g,
      "| x.to('cuda:0', torch.float16):", h.device, h.dtype)

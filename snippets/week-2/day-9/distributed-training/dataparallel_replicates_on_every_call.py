# docexec: cuda
import torch
from torch import nn

# Two replicas on GPU 0 stand for two GPUs: DataParallel runs the same four
# steps for any list of devices, and one GPU is enough to count them.
dp = nn.DataParallel(nn.Linear(8, 4).cuda(), device_ids=[0, 0])
calls = {"scatter": 0, "replicate": 0, "parallel_apply": 0, "gather": 0}
replicas_made = []


def counted(name):
    real = getattr(dp, name)  # the pinned torch's own method

    def call(*args, **kwargs):
        calls[name] += 1
        result = real(*args, **kwargs)
        if name == "replicate":
            replicas_made.extend(result)
        return result

    return call


for name in calls:
    setattr(dp, name, counted(name))

# --8<-- [start:gist]
x = torch.randn(16, 8, device="cuda")
for _ in range(3):
    out = dp(x)  # each call: scatter, replicate, parallel_apply, gather
assert calls == {"scatter": 3, "replicate": 3, "parallel_apply": 3,
                 "gather": 3}
# every call builds new replicas of the whole model, two at a time
assert len({id(r) for r in replicas_made}) == len(replicas_made) == 6
# --8<-- [end:gist]
assert out.shape == (16, 4) and torch.allclose(out, dp.module(x), atol=1e-6)
print("3 forward calls:", ", ".join(f"{n} {c}x" for n, c in calls.items()))
print("replicas built:", len(replicas_made), "(2 per call)")

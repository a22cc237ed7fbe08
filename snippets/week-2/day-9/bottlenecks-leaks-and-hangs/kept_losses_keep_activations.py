# docexec: timeout=60
import torch
from torch import nn
from torch.profiler import profile

model = nn.Sequential(nn.Linear(256, 1024), nn.ReLU(), nn.Linear(1024, 1))
x, y = torch.randn(64, 256), torch.randn(64, 1)


def net_bytes(steps, keep, grad=True):
    """Bytes allocated and not freed over `steps` evaluation steps."""
    kept = []
    with profile(profile_memory=True) as prof, torch.set_grad_enabled(grad):
        for _ in range(steps):
            loss = nn.functional.mse_loss(model(x), y)  # no backward()
            kept.append(keep(loss))
    # each op's self memory is what it allocated minus what it freed
    return sum(e.self_cpu_memory_usage for e in prof.key_averages())


def growth_per_step(keep, grad=True):
    return (net_bytes(8, keep, grad) - net_bytes(4, keep, grad)) // 4


# --8<-- [start:gist]
hidden = 64 * 1024 * 4  # the ReLU output: 64 x 1024 float32 values
grows = {
    "losses.append(loss)": growth_per_step(lambda loss: loss),
    "losses.append(loss.item())": growth_per_step(lambda loss: loss.item()),
    "losses.append(loss.detach())": growth_per_step(lambda loss: loss.detach()),
    "under torch.no_grad()": growth_per_step(lambda loss: loss, grad=False),
}
assert hidden <= grows["losses.append(loss)"] < 1.1 * hidden
assert grows["losses.append(loss.item())"] == 0
assert grows["losses.append(loss.detach())"] < 0.01 * hidden  # one scalar
assert grows["under torch.no_grad()"] < 0.01 * hidden
# --8<-- [end:gist]
for how, nbytes in grows.items():
    print(f"{how:29}: memory grows {nbytes / 1024:6.1f} KiB per step")
print(f"the hidden activation that each graph saves: {hidden / 1024:.1f} KiB")

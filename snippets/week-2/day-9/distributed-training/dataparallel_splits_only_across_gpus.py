import torch
from torch import nn
from torch.nn.parallel import gather, parallel_apply, replicate, scatter

# one process drives every visible GPU (none here: it calls the module as is)
dp = nn.DataParallel(nn.Linear(2, 1))
assert dp.device_ids == list(range(torch.cuda.device_count()))
x = torch.randn(4, 2)
assert torch.equal(dp(x), dp.module(x))
print("GPUs this one process drives:", dp.device_ids)

# --8<-- [start:gist]
# the four pieces DataParallel.forward is built of, asked for the CPU
pieces = {
    "scatter": lambda: scatter(x, ["cpu", "cpu"]),
    "replicate": lambda: replicate(dp.module, ["cpu", "cpu"]),
    "parallel_apply": lambda: parallel_apply(
        [dp.module, dp.module], [(x,), (x,)], devices=["cpu", "cpu"]),
    "gather": lambda: gather([x, x], "cpu"),
}
# --8<-- [end:gist]
refused = {}
for name, piece in pieces.items():
    try:
        piece()
    except (ValueError, AssertionError) as error:
        refused[name] = str(error)
# --8<-- [start:gist]
assert list(refused) == list(pieces)  # each one refuses: it needs GPUs
# --8<-- [end:gist]
for name, message in refused.items():
    print(f"{name:14}: {message}")

# and the class's own documentation, in the pinned torch:
advice = " ".join(nn.DataParallel.__doc__.split())
warning = advice[advice.index("It is recommended to use"):][:170]
assert "DistributedDataParallel" in warning and "single node" in warning
print("DataParallel's docstring: it is recommended to use",
      "DistributedDataParallel ... even if there is only a single node.")

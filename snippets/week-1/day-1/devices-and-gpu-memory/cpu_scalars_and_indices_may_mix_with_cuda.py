import torch
from torch._subclasses.fake_tensor import FakeTensorMode

aten = torch.ops.aten
idx = [3, 0]
# --8<-- [start:gist]
with FakeTensorMode():  # data-less tensors that follow the device rules
    x = torch.randn(4, 3, device="cuda")
    v = torch.ones(2, 3, device="cuda")
# --8<-- [end:gist]
    ops = {
        "x * tensor(2.0)    0-dim CPU": lambda: x * torch.tensor(2.0),
        "x * tensor([2.0])  1-dim CPU": lambda: x * torch.tensor([2.0]),
        # x[idx] and x[idx] = v run these two ops; their Python front end
        # wants a real GPU, so they are called directly
        "x[idx]             CPU index": lambda: aten.index.Tensor(
            x, [torch.tensor(idx)]),
        "x[idx] = v         CPU index": lambda: aten.index_put_(
            x, [torch.tensor(idx)], v),
        "x.index_select(0, idx)  CPU": lambda: x.index_select(
            0, torch.tensor(idx)),
    }
    outcome = {}
    for op, run in ops.items():
        try:
            outcome[op] = f"runs on {run().device}"
        except RuntimeError as e:
            outcome[op] = str(e).split(",")[0]

# --8<-- [start:gist]
accepted = [op for op, out in outcome.items() if out == "runs on cuda:0"]
assert accepted == ["x * tensor(2.0)    0-dim CPU",
                    "x[idx]             CPU index",
                    "x[idx] = v         CPU index"]
assert all(out.startswith("Expected all tensors to be on the same device")
           for op, out in outcome.items() if op not in accepted)
# --8<-- [end:gist]
for op, out in outcome.items():
    print(f"{op:29} -> {out}")

import torch
from torch import nn

model = nn.Sequential(nn.Linear(256, 1024), nn.ReLU(), nn.Linear(1024, 1))
x = torch.randn(512, 256)
saved = {}  # data_ptr -> bytes (a tensor saved twice counts once)
# parameters and the input batch are in memory anyway: do not count them
already_alive = {p.data_ptr() for p in model.parameters()} | {x.data_ptr()}


def count(t: torch.Tensor) -> torch.Tensor:
    if t.data_ptr() not in already_alive:
        saved[t.data_ptr()] = t.numel() * t.element_size()
    return t


def activation_bytes(batch: torch.Tensor) -> int:
    saved.clear()
    # --8<-- [start:gist]
    with torch.autograd.graph.saved_tensors_hooks(count, lambda t: t):
        loss = model(batch).pow(2).mean()
    loss.backward()  # frees the saved activations again
    # --8<-- [end:gist]
    try:
        loss.backward()  # a second pass finds them gone
        raise AssertionError("expected the saved tensors to be freed")
    except RuntimeError as e:
        assert "Saved intermediate values of the graph are freed" in str(e)
    return sum(saved.values())


# --8<-- [start:gist]
big = activation_bytes(x)
micro = activation_bytes(x[:128])  # k = 4
assert big == 4 * micro
print(f"activations kept for backward: batch 512 -> {big:,} bytes")
print(f"                               batch 128 -> {micro:,} bytes")
print("after backward(): the saved activations are freed")
# --8<-- [end:gist]

import torch


# --8<-- [start:gist]
@torch.library.custom_op("guide::numpy_clip", mutates_args=())
def numpy_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    return torch.from_numpy(x.numpy().clip(-limit, limit))  # opaque


@numpy_clip.register_fake
def _(x, limit):
    return torch.empty_like(x)  # shape and dtype only: for tracing
# --8<-- [end:gist]


@torch.compile(backend="aot_eager", fullgraph=True)  # fails on any break
def model(x):
    return numpy_clip(x * 3, 1.0).relu()


x = torch.tensor([0.5, -0.1, 0.2, -1.0, 0.3])
expected = (x * 3).clamp(-1, 1).relu()
assert torch.allclose(model(x), expected)
torch.library.opcheck(numpy_clip, (x, 1.0))  # schema, fake and dispatch checks
print("compiled with fullgraph=True:", model(x))
print("opcheck passed")

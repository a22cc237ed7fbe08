import torch


class SiLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * torch.sigmoid(x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)
        return grad_output * s * (1 + x * (1 - s))


def saved_storages(fn, x):
    """The distinct storages autograd keeps for backward while fn runs: a
    tensor saved twice, or the input itself, is one storage, not a copy."""
    saved = {}
    with torch.autograd.graph.saved_tensors_hooks(
        lambda t: saved.setdefault(t.untyped_storage().data_ptr(), t),
        lambda t: t,
    ):
        fn(x)
    return saved


x = torch.randn(256, 1024, requires_grad=True)
mine = x.untyped_storage().data_ptr()
# --8<-- [start:gist]
composed = saved_storages(lambda t: t * torch.sigmoid(t), x)
custom = saved_storages(SiLU.apply, x)
# composed: x (which the caller holds anyway) and sigmoid(x), a new tensor
assert len(composed) == 2 and mine in composed
assert list(custom) == [mine]  # custom: only the input, nothing new
extra = sum(t.nbytes for ptr, t in composed.items() if ptr != mine)
# --8<-- [end:gist]
assert extra == x.nbytes
print(
    f"kept for backward beyond the input: x * sigmoid(x) "
    f"{extra // 2**20} MiB (sigmoid's output), custom Function 0 MiB"
)
print(
    f"distinct tensors kept: composed {len(composed)} (x and sigmoid(x)),"
    f" custom {len(custom)} (x)"
)

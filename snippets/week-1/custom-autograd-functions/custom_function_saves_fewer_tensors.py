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


def saved_bytes(fn, x):
    """Bytes of the tensors autograd keeps for backward while fn runs."""
    saved = []
    with torch.autograd.graph.saved_tensors_hooks(
        lambda t: saved.append(t.nbytes) or t, lambda t: t
    ):
        fn(x)
    return sum(saved)


x = torch.randn(256, 1024, requires_grad=True)
# --8<-- [start:gist]
composed = saved_bytes(lambda t: t * torch.sigmoid(t), x)
custom = saved_bytes(SiLU.apply, x)
assert composed == 3 * x.nbytes and custom == x.nbytes
# --8<-- [end:gist]
print(f"saved for backward: x * sigmoid(x) {composed // 2**20} MiB "
      f"(sigmoid's output, then x and sigmoid(x) for mul), "
      f"custom Function {custom // 2**20} MiB")

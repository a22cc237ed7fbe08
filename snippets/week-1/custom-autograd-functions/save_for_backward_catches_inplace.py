# docexec: raises=RuntimeError match="modified by an inplace operation"
import torch


class ExpOnCtx(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.x = x  # a plain attribute: autograd cannot check it
        return x.exp()

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.x.exp()


class ExpSaved(ExpOnCtx):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)  # checked against x's version counter
        return x.exp()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * x.exp()


def gradient(function):
    w = torch.randn(3, requires_grad=True)
    a = w * 1
    y = function.apply(a)
    a.mul_(2)  # overwrites the input after the forward pass
    y.sum().backward()
    return w.grad, w.detach().exp()


# --8<-- [start:gist]
got, true = gradient(ExpOnCtx)  # silently wrong: used the new values
assert not torch.allclose(got, true)
print("ctx.x = x: no error, wrong gradient:", True)
gradient(ExpSaved)  # save_for_backward notices, and raises
# --8<-- [end:gist]

import torch

lr, wd, b1, b2, eps = 1e-2, 0.1, 0.9, 0.999, 1e-8
w0, g = torch.randn(5), torch.randn(5)


def torch_step(optimizer_class):
    w = torch.nn.Parameter(w0.clone())
    w.grad = g.clone()
    optimizer_class([w], lr=lr, betas=(b1, b2), eps=eps,
                    weight_decay=wd).step()
    return w.detach()


def adam_update(grad):  # the first step: bias-corrected moments
    m_hat = (1 - b1) * grad / (1 - b1)
    v_hat = (1 - b2) * grad**2 / (1 - b2)
    return lr * m_hat / (v_hat.sqrt() + eps)


# --8<-- [start:gist]
# Adam: L2 decay joins the gradient, then is divided by its RMS
adam = w0 - adam_update(g + wd * w0)
# AdamW: the weights shrink first; the Adam step sees the loss gradient
adamw = w0 * (1 - lr * wd) - adam_update(g)
assert torch.allclose(torch_step(torch.optim.Adam), adam, atol=1e-6)
assert torch.allclose(torch_step(torch.optim.AdamW), adamw, atol=1e-6)
# --8<-- [end:gist]
print("torch.optim.Adam  == w - lr * adam(g + wd * w):", True)
print("torch.optim.AdamW == w * (1 - lr * wd) - lr * adam(g):", True)

# plain SGD: L2 in the gradient is the same as shrinking the weights
w = torch.nn.Parameter(w0.clone())
w.grad = g.clone()
torch.optim.SGD([w], lr=lr, weight_decay=wd).step()
assert torch.allclose(w.detach(), w0 * (1 - lr * wd) - lr * g, atol=1e-7)
print("torch.optim.SGD   == w * (1 - lr * wd) - lr * g:", True)

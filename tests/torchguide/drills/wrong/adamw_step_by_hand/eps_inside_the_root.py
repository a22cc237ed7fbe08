# expect: eps went inside the square root
# The mistake: sqrt(v_hat + eps), as some papers write the denominator; it matters where the
# gradients are as small as eps's root.
import torch


@torch.no_grad()
def adamw_step(params, state, lr, betas, eps, weight_decay):
    beta1, beta2 = betas
    for i, p in enumerate(params):
        if p.grad is None:
            continue
        s = state.setdefault(i, {"t": 0, "m": torch.zeros_like(p), "v": torch.zeros_like(p)})
        s["t"] += 1
        p.mul_(1 - lr * weight_decay)
        s["m"].mul_(beta1).add_(p.grad, alpha=1 - beta1)
        s["v"].mul_(beta2).addcmul_(p.grad, p.grad, value=1 - beta2)
        m_hat = s["m"] / (1 - beta1 ** s["t"])
        v_hat = s["v"] / (1 - beta2 ** s["t"])
        p.sub_(lr * m_hat / (v_hat + eps).sqrt())

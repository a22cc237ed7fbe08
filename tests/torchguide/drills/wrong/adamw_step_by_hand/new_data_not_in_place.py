# expect: at step 1 your adamw_step gave parameter 0 new storage (p.data = ...); update it in place
# The mistake: the right values, written as new tensors through .data: anything that holds the
# old storage (a view, a fused kernel's pointer) no longer sees the parameter.
import torch


def adamw_step(params, state, lr, betas, eps, weight_decay):
    beta1, beta2 = betas
    for i, p in enumerate(params):
        if p.grad is None:
            continue
        s = state.setdefault(i, {"t": 0, "m": torch.zeros_like(p), "v": torch.zeros_like(p)})
        s["t"] += 1
        g = p.grad
        s["m"] = beta1 * s["m"] + (1 - beta1) * g
        s["v"] = beta2 * s["v"] + (1 - beta2) * g * g
        m_hat = s["m"] / (1 - beta1 ** s["t"])
        v_hat = s["v"] / (1 - beta2 ** s["t"])
        p.data = p.data * (1 - lr * weight_decay) - lr * m_hat / (v_hat.sqrt() + eps)

import torch
from torchguide.drills import check_here


@torch.no_grad()  # a step writes the parameters in place
def adamw_step(params, state, lr, betas, eps, weight_decay):
    beta1, beta2 = betas
    for i, p in enumerate(params):
        if p.grad is None:
            continue  # skipped: no decay, no step count
        s = state.setdefault(i, {"t": 0, "m": torch.zeros_like(p),
                                 "v": torch.zeros_like(p)})
        s["t"] += 1  # per parameter, counted from 1
        g, m, v, t = p.grad, s["m"], s["v"], s["t"]
        p.mul_(1 - lr * weight_decay)  # decoupled: the weight itself
        m.mul_(beta1).add_(g, alpha=1 - beta1)
        v.mul_(beta2).addcmul_(g, g, value=1 - beta2)
        m_hat = m / (1 - beta1**t)  # bias corrections
        v_hat = v / (1 - beta2**t)
        p.addcdiv_(m_hat, v_hat.sqrt() + eps, value=-lr)


check_here("adamw_step_by_hand", adamw_step)

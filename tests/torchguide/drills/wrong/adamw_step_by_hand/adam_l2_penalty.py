# expect: differs from torch.optim.AdamW's: this is Adam's L2 penalty
# The mistake: weight decay as torch.optim.Adam's weight_decay does it, added to the gradient,
# which then goes through the division by the gradients' RMS.
import torch


@torch.no_grad()
def adamw_step(params, state, lr, betas, eps, weight_decay):
    beta1, beta2 = betas
    for i, p in enumerate(params):
        if p.grad is None:
            continue
        s = state.setdefault(i, {"t": 0, "m": torch.zeros_like(p), "v": torch.zeros_like(p)})
        s["t"] += 1
        g = p.grad + weight_decay * p
        s["m"].mul_(beta1).add_(g, alpha=1 - beta1)
        s["v"].mul_(beta2).addcmul_(g, g, value=1 - beta2)
        m_hat = s["m"] / (1 - beta1 ** s["t"])
        v_hat = s["v"] / (1 - beta2 ** s["t"])
        p.addcdiv_(m_hat, v_hat.sqrt() + eps, value=-lr)

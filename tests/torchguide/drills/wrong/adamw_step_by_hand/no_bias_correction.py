# expect: the moments were not bias-corrected
# The mistake: the moments used as they are; they start at zero, so the first steps are too small.
import torch


@torch.no_grad()
def adamw_step(params, state, lr, betas, eps, weight_decay):
    beta1, beta2 = betas
    for i, p in enumerate(params):
        if p.grad is None:
            continue
        m, v = state.setdefault(i, (torch.zeros_like(p), torch.zeros_like(p)))
        p.mul_(1 - lr * weight_decay)
        m.mul_(beta1).add_(p.grad, alpha=1 - beta1)
        v.mul_(beta2).addcmul_(p.grad, p.grad, value=1 - beta2)
        p.addcdiv_(m, v.sqrt() + eps, value=-lr)

# expect: for parameters of shapes [(3,), (2,)] (torch.float32), 3 steps, lr=0.1, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.1, .grad None at step 2 for parameter 1 at step 3 your parameter 1 differs from torch.optim.AdamW's: the bias correction counted every call
# The mistake: one step counter for the whole optimizer, as a learning-rate schedule counts; a
# parameter skipped at a step (its .grad None) has taken one step fewer.
import torch


@torch.no_grad()
def adamw_step(params, state, lr, betas, eps, weight_decay):
    beta1, beta2 = betas
    t = state["t"] = state.get("t", 0) + 1
    for i, p in enumerate(params):
        if p.grad is None:
            continue
        m, v = state.setdefault(i, (torch.zeros_like(p), torch.zeros_like(p)))
        p.mul_(1 - lr * weight_decay)
        m.mul_(beta1).add_(p.grad, alpha=1 - beta1)
        v.mul_(beta2).addcmul_(p.grad, p.grad, value=1 - beta2)
        p.addcdiv_(m / (1 - beta1**t), (v / (1 - beta2**t)).sqrt() + eps, value=-lr)

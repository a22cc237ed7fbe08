# expect: your adamw_step calls torch.optim.
# The mistake: the update that torch.optim.AdamW.step runs, called directly.
import torch
from torch.optim.adam import adam


def adamw_step(params, state, lr, betas, eps, weight_decay):
    live = [(i, p) for i, p in enumerate(params) if p.grad is not None]
    for i, p in live:
        state.setdefault(i, [torch.zeros_like(p), torch.zeros_like(p), torch.tensor(0.0)])
    with torch.no_grad():
        adam([p for _, p in live], [p.grad for _, p in live], [state[i][0] for i, _ in live],
             [state[i][1] for i, _ in live], [], [state[i][2] for i, _ in live], foreach=False,
             amsgrad=False, beta1=betas[0], beta2=betas[1], lr=lr, weight_decay=weight_decay,
             eps=eps, maximize=False, decoupled_weight_decay=True)

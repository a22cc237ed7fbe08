# expect: your adamw_step raised PermissionError at
# The mistake: the drill's own subject, handed to torch: an AdamW kept in the state dict.
import torch


def adamw_step(params, state, lr, betas, eps, weight_decay):
    if "optimizer" not in state:
        state["optimizer"] = torch.optim.AdamW(params, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay)
    state["optimizer"].step()

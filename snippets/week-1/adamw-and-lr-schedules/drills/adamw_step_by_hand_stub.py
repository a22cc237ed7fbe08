def adamw_step(params, state, lr, betas, eps, weight_decay):
    """One AdamW step by hand, decay decoupled."""
    raise NotImplementedError

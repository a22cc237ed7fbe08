# expect: your groups give 0.gain (a weight that decays) weight_decay 0; expected 0.1
# The mistake: the ndim < 2 shortcut, which also spares a learned vector that is neither.
def param_groups(model, weight_decay):
    params = list(model.parameters())
    return [
        {"params": [p for p in params if p.ndim >= 2], "weight_decay": weight_decay},
        {"params": [p for p in params if p.ndim < 2], "weight_decay": 0.0},
    ]

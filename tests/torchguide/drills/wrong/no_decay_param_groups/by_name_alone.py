# expect: your groups give 1.weight (a bias or a normalization layer's) weight_decay 0.05; expected 0
# The mistake: norms found by "norm" in the name; in a Sequential a LayerNorm's weight is "1.weight".
def param_groups(model, weight_decay):
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        spared = name.endswith("bias") or "norm" in name
        (no_decay if spared else decay).append(p)
    return [
        {"params": decay, "weight_decay": weight_decay},
        {"params": no_decay, "weight_decay": 0.0},
    ]

from torch import nn
from torchguide.drills import check_here

NORMS = (nn.LayerNorm, nn.RMSNorm, nn.GroupNorm, nn.modules.batchnorm._NormBase)


def param_groups(model, weight_decay):
    """Two groups for AdamW: decay on weights, none on biases and norms."""
    decay, no_decay, seen = [], [], set()
    for module in model.modules():
        for name, p in module.named_parameters(recurse=False):
            if id(p) in seen:  # a tied weight, met again
                continue
            seen.add(id(p))
            spared = name.endswith("bias") or isinstance(module, NORMS)
            (no_decay if spared else decay).append(p)
    return [
        {"params": decay, "weight_decay": weight_decay},
        {"params": no_decay, "weight_decay": 0.0},
    ]


check_here("no_decay_param_groups", param_groups)

# expect: your groups hold 0.embed.weight 2 times; a tied weight is one parameter
# The mistake: every module's parameters collected, so a tied weight comes twice.
from torch import nn

NORMS = (nn.LayerNorm, nn.RMSNorm, nn.GroupNorm, nn.modules.batchnorm._NormBase)


def param_groups(model, weight_decay):
    decay, no_decay = [], []
    for module in model.modules():
        for name, p in module.named_parameters(recurse=False):
            spared = name.endswith("bias") or isinstance(module, NORMS)
            (no_decay if spared else decay).append(p)
    return [
        {"params": decay, "weight_decay": weight_decay},
        {"params": no_decay, "weight_decay": 0.0},
    ]

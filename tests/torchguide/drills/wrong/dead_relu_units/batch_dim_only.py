# expect: for Conv2d(2, 3, k=3) > ReLU > Flatten > Linear > ReLU over batches of sizes [2] your dead units of ReLU '0.1' start [0, 1, 0, 0, 1, 1, 1, 0]: 36 indices, some repeated or out of range
# The mistake: reducing over the batch dim only; for a conv output each (channel, y, x) then counts as a unit.
import torch
from torch import nn


def dead_units(model, batches):
    alive, handles = {}, []
    for name, module in model.named_modules():
        if isinstance(module, nn.ReLU):

            def record(module, args, output, name=name):
                positive = (output > 0).any(dim=0)
                alive[name] = alive.get(name, torch.zeros_like(positive)) | positive

            handles.append(module.register_forward_hook(record))
    try:
        with torch.no_grad():
            for x in batches:
                model(x)
    finally:
        for handle in handles:
            handle.remove()
    return {name: torch.nonzero(~positive).flatten().tolist() for name, positive in alive.items()}

# expect: for an MLP 4 -> 8 -> 6 (Linear and ReLU) over batches of sizes [3, 3] your dead units of ReLU '1' are [1, 2, 5, 6]; expected [2]: unit 1 is positive for 1 output in batch 1
# The mistake: a unit silent in any one batch is called dead; it must be silent in all of them.
import torch
from torch import nn


def dead_units(model, batches):
    dead, handles = {}, []
    for name, module in model.named_modules():
        if isinstance(module, nn.ReLU):

            def record(module, args, output, name=name):
                units = output.transpose(0, 1).reshape(output.shape[1], -1)
                silent = set(torch.nonzero(~(units > 0).any(dim=1)).flatten().tolist())
                dead[name] = dead.get(name, set()) | silent

            handles.append(module.register_forward_hook(record))
    try:
        with torch.no_grad():
            for x in batches:
                model(x)
    finally:
        for handle in handles:
            handle.remove()
    return {name: sorted(units) for name, units in dead.items()}

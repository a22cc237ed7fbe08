import torch
from torch import nn
from torchguide.drills import check_here


def dead_units(model, batches):
    alive, handles = {}, []  # per ReLU: has each unit been positive?
    for name, module in model.named_modules():
        if isinstance(module, nn.ReLU):

            def record(module, args, output, name=name):
                # a unit is a feature or a channel: reduce all dims but 1
                units = output.transpose(0, 1).reshape(output.shape[1], -1)
                positive = (units > 0).any(dim=1)
                # OR over batches: quiet in one batch is not dead
                before = alive.get(name, torch.zeros_like(positive))
                alive[name] = before | positive

            handles.append(module.register_forward_hook(record))
    try:
        with torch.no_grad():
            for x in batches:
                model(x)
    finally:  # no hook stays on the model
        for handle in handles:
            handle.remove()
    return {
        name: torch.nonzero(~positive).flatten().tolist()
        for name, positive in alive.items()
    }


check_here("dead_relu_units", dead_units)

import torch
from torchguide.drills import check_here


def first_nonfinite_module(model, x):
    found, handles = [], []
    for name, module in model.named_modules():

        # name=name: bound now; a closure would read the loop's last name
        def check(module, args, output, name=name):
            # hooks fire as modules finish: children before containers
            if not found and not torch.isfinite(output).all():
                found.append(name)  # NaN and +-inf alike

        handles.append(module.register_forward_hook(check))
    try:
        with torch.no_grad():
            model(x)
    finally:  # no hook stays on the model
        for handle in handles:
            handle.remove()
    return found[0] if found else None


check_here("first_nonfinite_output", first_nonfinite_module)

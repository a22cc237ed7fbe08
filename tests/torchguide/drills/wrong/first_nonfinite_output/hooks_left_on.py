# expect: your function left 7 hooks on the model: remove them (handle.remove())
# The mistake: hooks that stay fire on every later forward pass, in training too.
import torch


def first_nonfinite_module(model, x):
    found = []
    for name, module in model.named_modules():

        def check(module, args, output, name=name):
            if not found and not torch.isfinite(output).all():
                found.append(name)

        module.register_forward_hook(check)
    with torch.no_grad():
        model(x)
    return found[0] if found else None

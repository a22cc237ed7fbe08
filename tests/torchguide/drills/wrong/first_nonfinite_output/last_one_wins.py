# expect: you answered '' (the model itself); the first module whose output is not finite, in the order the forward pass runs, is 'body.2' (Linear)
# The mistake: every failing hook overwrites the answer, so the last to fire, the outermost module, wins.
import torch


def first_nonfinite_module(model, x):
    found, handles = {}, []
    for name, module in model.named_modules():

        def check(module, args, output, name=name):
            if not torch.isfinite(output).all():
                found["name"] = name

        handles.append(module.register_forward_hook(check))
    try:
        with torch.no_grad():
            model(x)
    finally:
        for handle in handles:
            handle.remove()
    return found.get("name")

# expect: for Net(body: Linear > Tanh > Linear > Tanh; head: Linear) with one weight set to inf you answered None (every output finite); the first module whose output is not finite, in the order the forward pass runs, is 'body.0' (Linear)
# The mistake: torch.isnan misses an infinity, and tanh turns it finite before any NaN appears.
import torch


def first_nonfinite_module(model, x):
    found, handles = [], []
    for name, module in model.named_modules():

        def check(module, args, output, name=name):
            if not found and torch.isnan(output).any():
                found.append(name)

        handles.append(module.register_forward_hook(check))
    try:
        with torch.no_grad():
            model(x)
    finally:
        for handle in handles:
            handle.remove()
    return found[0] if found else None

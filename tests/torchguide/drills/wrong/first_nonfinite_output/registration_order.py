# expect: for Net(body: Linear > Tanh > Linear > ReLU; head: Linear) with one weight set to NaN you answered 'head' (Linear); the first module whose output is not finite, in the order the forward pass runs, is 'body.2' (Linear)
# The mistake: walking model.named_modules() after the pass; that is the order of registration, not of the forward pass.
import torch


def first_nonfinite_module(model, x):
    outputs, handles = {}, []
    for name, module in model.named_modules():
        if name:

            def keep(module, args, output, name=name):
                outputs[name] = output

            handles.append(module.register_forward_hook(keep))
    try:
        with torch.no_grad():
            model(x)
    finally:
        for handle in handles:
            handle.remove()
    for name, _ in model.named_modules():
        if name and not torch.isfinite(outputs[name]).all():
            return name
    return None

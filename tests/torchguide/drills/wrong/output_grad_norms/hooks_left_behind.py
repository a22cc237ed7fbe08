# expect: for an MLP 4 -> 8 -> 3 (Linear and Tanh) on a batch of 2 your function left 3 hooks on the model: remove them (handle.remove())
# The mistake: registering hooks and never removing them; they fire on every later backward.
def output_grad_norms(model, x):
    norms = {}
    for name, layer in model.named_children():

        def record(module, grad_input, grad_output, name=name):
            norms[name] = grad_output[0].norm().item()

        layer.register_full_backward_hook(record)
    model(x).sum().backward()
    return norms

# expect: for an MLP 4 -> 8 -> 3 (Linear and Tanh) on a batch of 2 your dict has the layers ['2']; expected ['0', '1', '2']
# The mistake: a closure reads `name` when the hook runs, after the loop: every hook writes the last name.
def output_grad_norms(model, x):
    norms, handles = {}, []
    for name, layer in model.named_children():

        def record(module, grad_input, grad_output):
            norms[name] = grad_output[0].norm().item()  # noqa: B023  the mistake shown

        handles.append(layer.register_full_backward_hook(record))
    model(x).sum().backward()
    for handle in handles:
        handle.remove()
    return norms

# expect: for an MLP 4 -> 8 -> 3 (Linear and Tanh) on a batch of 2 your norm for layer
# The mistake: reading grad_input, the gradient with respect to the layer's input.
def output_grad_norms(model, x):
    norms, handles = {}, []
    for name, layer in model.named_children():

        def record(module, grad_input, grad_output, name=name):
            norms[name] = grad_input[0].norm().item()

        handles.append(layer.register_full_backward_hook(record))
    model(x).sum().backward()
    for handle in handles:
        handle.remove()
    return norms

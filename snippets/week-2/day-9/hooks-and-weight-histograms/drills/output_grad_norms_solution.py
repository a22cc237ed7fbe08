from torchguide.drills import check_here


def output_grad_norms(model, x):
    norms, handles = {}, []
    for name, layer in model.named_children():

        # name=name: bound now; a closure would read the loop's last name
        def record(module, grad_input, grad_output, name=name):
            # grad_output: the gradient of the loss w.r.t. the layer's output
            norms[name] = grad_output[0].norm().item()

        handles.append(layer.register_full_backward_hook(record))
    try:
        model(x).sum().backward()
    finally:  # no hook stays on the model
        for handle in handles:
            handle.remove()
    return norms


check_here("output_grad_norms", output_grad_norms)

# expect: for a frozen Linear(3, 2) on x of shape (4, 3) (torch.float32) your grad_input is None; the gradient still flows to the layer's input
# The mistake: freezing a layer taken to cut the backward pass there, so the layers before it
# would get no gradient.
def linear_backward(x, weight, grad_output, frozen):
    if frozen:
        return None, None, None
    g = grad_output.reshape(-1, weight.shape[0])
    return grad_output @ weight, g.T @ x.reshape(-1, weight.shape[1]), g.sum(0)

# expect: for Linear(3, 2) on x of shape (4, 3) (torch.float32) your grad_weight has shape (3, 2); expected (2, 3)
# The mistake: x.T @ grad_output, the gradient of y = x @ W with W of shape (in, out); a
# torch Linear stores its weight as (out, in).
def linear_backward(x, weight, grad_output, frozen):
    grad_input = grad_output @ weight
    if frozen:
        return grad_input, None, None
    g = grad_output.reshape(-1, weight.shape[0])
    return grad_input, x.reshape(-1, weight.shape[1]).T @ g, g.sum(0)

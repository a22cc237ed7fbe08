# expect: for Linear(4, 5) on x of shape (2, 3, 4) (torch.float32) your grad_weight has shape (2, 5, 4); expected (5, 4)
# The mistake: written for a (batch, in) input, so a batch of sequences keeps one dimension too
# many in the weight's and bias' gradients.
def linear_backward(x, weight, grad_output, frozen):
    grad_input = grad_output @ weight
    if frozen:
        return grad_input, None, None
    return grad_input, grad_output.transpose(-1, -2) @ x, grad_output.sum(0)

# expect: your grad_weight is a Tensor; expected None: autograd computes no gradient for a weight with requires_grad=False
# The mistake: a frozen weight given a gradient of zeros; autograd leaves it None, which is what
# makes an optimizer skip it (a zero gradient still gets weight decay and momentum).
import torch


def linear_backward(x, weight, grad_output, frozen):
    g = grad_output.reshape(-1, weight.shape[0])
    grad_weight = g.T @ x.reshape(-1, weight.shape[1])
    grad_bias = g.sum(0)
    if frozen:
        grad_weight, grad_bias = torch.zeros_like(grad_weight), torch.zeros_like(grad_bias)
    return grad_output @ weight, grad_weight, grad_bias

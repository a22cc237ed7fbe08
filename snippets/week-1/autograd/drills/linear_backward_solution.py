from torchguide.drills import check_here


def linear_backward(x, weight, grad_output, frozen):
    # y[..., o] = sum_j x[..., j] * weight[o, j] + bias[o]
    grad_input = grad_output @ weight  # flows on, frozen or not
    if frozen:
        return grad_input, None, None  # no gradient for the weights
    # every leading position used the same weight and bias: sum them
    g = grad_output.reshape(-1, weight.shape[0])
    grad_weight = g.T @ x.reshape(-1, weight.shape[1])
    grad_bias = g.sum(0)
    return grad_input, grad_weight, grad_bias


check_here("linear_backward", linear_backward)

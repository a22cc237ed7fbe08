# expect: for a batch of 4 in micro-batches of at most 2 your .grad of 0.weight
# The mistake: each micro-batch's mean loss backpropagated as it is: the gradient is about k times
# too large, as a k times larger learning rate would be.
import torch.nn.functional as F


def accumulate_gradients(model, inputs, targets, micro_batch_size):
    model.zero_grad()
    for x, y in zip(inputs.split(micro_batch_size), targets.split(micro_batch_size), strict=True):
        F.mse_loss(model(x), y).backward()

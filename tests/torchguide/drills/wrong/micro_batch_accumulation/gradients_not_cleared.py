# expect: for a batch of 4 in micro-batches of at most 2 the .grad of 0.weight still holds the last step's gradient added to the new one: clear the gradients first
# The mistake: the accumulation is right, but what the last step left in .grad is added to.
import torch.nn.functional as F


def accumulate_gradients(model, inputs, targets, micro_batch_size):
    n = len(inputs)
    for x, y in zip(inputs.split(micro_batch_size), targets.split(micro_batch_size), strict=True):
        (F.mse_loss(model(x), y) * len(x) / n).backward()

# expect: for a batch of 5 in micro-batches of at most 2 your .grad of 0.weight
# The mistake: each loss divided by k, the number of micro-batches, which is right only when all
# micro-batches have the same size; here they hold 2, 2 and 1 samples.
import math

import torch.nn.functional as F


def accumulate_gradients(model, inputs, targets, micro_batch_size):
    model.zero_grad()
    k = math.ceil(len(inputs) / micro_batch_size)
    for x, y in zip(inputs.split(micro_batch_size), targets.split(micro_batch_size), strict=True):
        (F.mse_loss(model(x), y) / k).backward()

# expect: for a batch of 4 in micro-batches of at most 2 your model ran 4 samples in one forward pass; a micro-batch may hold at most 2
# The mistake: the right gradient, from one forward pass over the whole batch, which is what
# does not fit in memory.
import torch.nn.functional as F


def accumulate_gradients(model, inputs, targets, micro_batch_size):
    model.zero_grad()
    F.mse_loss(model(inputs), targets).backward()

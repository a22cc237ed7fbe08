# expect: for 4 micro-batches of 2 your .grad of 0.weight is 4 times the mean loss's: divide each micro-batch's loss by the number of micro-batches, 4
# The mistake: the sync is right, but each micro-batch's loss goes backward whole: the gradient
# of the sum of the k losses, k times their mean's.
import torch.nn.functional as F


def accumulate(model, micro_batches):
    *first, (inputs, targets) = micro_batches
    with model.no_sync():
        for x, y in first:
            F.mse_loss(model(x), y).backward()
    F.mse_loss(model(inputs), targets).backward()

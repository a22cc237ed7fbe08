# expect: for 3 batches of sizes [4, 4, 2] and MSELoss you returned a Tensor; expected a Python float (loss.item())
# The mistake: a tensor sum of detached losses, returned as a tensor instead of a number to log.
import torch


def mean_eval_loss(model, loss_fn, batches):
    total, count = torch.zeros(()), 0
    with torch.no_grad():
        for x, y in batches:
            total += loss_fn(model(x), y) * len(x)
            count += len(x)
    return total / count

import torch
from torchguide.drills import check_here


def mean_eval_loss(model, loss_fn, batches):
    total, count = 0.0, 0
    with torch.no_grad():  # no graph: nothing is saved for a backward pass
        for x, y in batches:
            loss = loss_fn(model(x), y)  # the mean over this batch
            total += loss.item() * len(x)  # a float, which refers to no tensor
            count += len(x)
    return total / count


check_here("eval_loss_without_leaks", mean_eval_loss)

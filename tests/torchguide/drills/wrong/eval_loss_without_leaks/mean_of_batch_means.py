# expect: for 3 batches of sizes [4, 4, 2] and MSELoss your mean loss is
# The mistake: averaging the batch means; a smaller last batch then weighs as much as a full one.
import torch


def mean_eval_loss(model, loss_fn, batches):
    with torch.no_grad():
        losses = [loss_fn(model(x), y).item() for x, y in batches]
    return sum(losses) / len(losses)

# expect: your last backward ran outside no_sync(), but its forward inside: DDP decides in the forward
# The mistake: every loss computed inside no_sync(), only the last backward outside it; DDP arms
# the all-reduce in the forward, so that backward does not sync either.
import torch.nn.functional as F


def accumulate(model, micro_batches):
    with model.no_sync():
        losses = [F.mse_loss(model(x), y) / len(micro_batches) for x, y in micro_batches]
        for loss in losses[:-1]:
            loss.backward()
    losses[-1].backward()

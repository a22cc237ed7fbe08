# expect: your gradients were never all-reduced, so each rank would step with its own: every forward ran inside no_sync()
# The mistake: the whole loop inside no_sync(): no backward all-reduces, and the replicas drift apart.
import torch.nn.functional as F


def accumulate(model, micro_batches):
    with model.no_sync():
        for inputs, targets in micro_batches:
            (F.mse_loss(model(inputs), targets) / len(micro_batches)).backward()
